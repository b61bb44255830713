import { unknownApiPath } from "@/lib/http/api/methods";

// Any /v1 path no other route file matches: 404 in the error envelope, for every method.
export {
  unknownApiPath as GET,
  unknownApiPath as POST,
  unknownApiPath as PUT,
  unknownApiPath as PATCH,
  unknownApiPath as DELETE,
};
