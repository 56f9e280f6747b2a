import { defineConfig } from "drizzle-kit";

// `npx drizzle-kit generate` writes registry/migrations from the schema; the migrations are committed
// and applied by the registry at start (registry/db/open.ts).
export default defineConfig({
  dialect: "sqlite",
  schema: "./registry/db/schema.ts",
  out: "./registry/migrations",
});
