import { apiMethods } from "@/lib/http/api/methods";
import { exportRoute } from "../export-route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({ GET: exportRoute("payouts") });
