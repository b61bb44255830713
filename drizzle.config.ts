import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes SQL migrations from the schema; they are committed and applied at start.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
