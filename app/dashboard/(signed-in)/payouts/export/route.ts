import { exportDownload } from "../../../export-download";

export const dynamic = "force-dynamic";

export const GET = (req: Request) => exportDownload(req, "payouts", "payouts:read", "/dashboard/payouts");
