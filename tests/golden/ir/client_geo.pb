

geo.proto