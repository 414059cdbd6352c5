
ê
flags.protoflags.v1"!
FlagRequest
name (	Rname":
Flag
enabled (Renabled
variant (	Rvariant"
Counter
id (Rid2Ù
Flags,
Get.flags.v1.FlagRequest.flags.v1.Flag-
Fail.flags.v1.FlagRequest.flags.v1.Flag-
Code.flags.v1.FlagRequest.flags.v1.Flag,
Raw.flags.v1.FlagRequest.flags.v1.Flag1
Typed.flags.v1.FlagRequest.flags.v1.Counterbproto3