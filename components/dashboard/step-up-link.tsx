import Link from "next/link";

/** Shown where an action was refused for want of step-up: the way to confirm and come back. */
export function StepUpLink({ next }: { next: string }) {
  return (
    <Link
      href={`/dashboard/step-up?next=${encodeURIComponent(next)}`}
      className="font-medium text-slate-900 underline underline-offset-2"
    >
      Confirm with your second factor
    </Link>
  );
}
