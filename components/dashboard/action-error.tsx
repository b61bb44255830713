import { StepUpLink } from "./step-up-link";

/** A refused action's message, with the way to step up when that is what it needs. */
export function ActionError({
  id,
  error,
  stepUp,
  next,
}: {
  id?: string;
  error?: string;
  stepUp?: boolean;
  next: string;
}) {
  if (!error) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-700">
      {error} {stepUp && <StepUpLink next={next} />}
    </p>
  );
}
