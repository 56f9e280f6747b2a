import { defineConfig } from "drizzle-kit";

// `npx drizzle-kit generate --config drizzle.pg.config.ts` writes registry/migrations-pg from the
// PostgreSQL schema; applied at start like the sqlite ones (registry/db/pg/open.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./registry/db/pg/schema.ts",
  out: "./registry/migrations-pg",
});
