import { exportDownload } from "../../../export-download";

export const dynamic = "force-dynamic";

export const GET = (req: Request) =>
  exportDownload(req, "balance_transactions", "balances:read", "/dashboard/balance-transactions");
