import type { CheckoutNetwork } from "@/lib/money-in/checkout/load-checkout";
import { cn } from "@/components/class-names";

/** Why a choice was not recorded (the page passes the code back in `?error=`). */
export function networkChoiceError(code: string | undefined, invalid: string): string | undefined {
  if (code === "unavailable") return "That network is not available right now. Please choose another one.";
  return code === "invalid" ? invalid : undefined;
}

/**
 * The payer's choice of network: a plain form (works without JavaScript), one button per network. The
 * action records the choice once; the deposit address follows from it.
 */
export function NetworkPicker({
  choices,
  action,
  error,
}: {
  choices: CheckoutNetwork[];
  action: (form: FormData) => Promise<void>;
  error?: string;
}) {
  return (
    <form action={action} className="px-5 py-5">
      <fieldset>
        <legend className="text-base font-semibold text-slate-900">Choose the network you will pay on</legend>
        <p className="mt-1 text-sm text-slate-700">
          Pick the network your wallet or exchange will send USDT on. It cannot be changed afterwards.
        </p>
        {error && (
          <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        )}
        <div className="mt-4 grid gap-2">
          {choices.map((n) => (
            <button
              key={n.chain}
              type="submit"
              name="chain"
              value={n.chain}
              className={cn(
                "flex min-h-12 items-center justify-between rounded-xl border border-slate-300 px-4 py-3 text-left",
                "hover:border-slate-500 hover:bg-slate-50",
                "focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600",
              )}
            >
              <span className="font-medium text-slate-900">{n.name}</span>
              <span className="text-sm text-slate-600">
                USDT · {n.standard}
                {n.emulated ? " · emulated" : ""}
              </span>
            </button>
          ))}
        </div>
        {choices.length === 0 && (
          <p className="mt-4 text-sm text-slate-700">No network is available for this payment right now.</p>
        )}
      </fieldset>
    </form>
  );
}
