
Ü
	geo.protogeo"
CityRequest
id (Rid"*
City
id (Rid
name (	Rname2w
Geo&
GetCity.geo.CityRequest	.geo.City$
Admin.geo.CityRequest	.geo.City"
Raw.geo.CityRequest	.geo.Citybproto3