import { z } from "zod";
import { CHAINS } from "./chains";

/** A request's `chain`: one of the service's networks (every resource that names a chain reads it so). */
export const chainField = z.enum(CHAINS, { error: `chain must be one of ${CHAINS.join(", ")}` });
