CREATE TABLE "advisories" (
	"id" serial PRIMARY KEY NOT NULL,
	"package_name" text NOT NULL,
	"range" text NOT NULL,
	"severity" text NOT NULL,
	"text" text NOT NULL,
	"created_at" text NOT NULL,
	"created_by" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" text NOT NULL,
	"actor" text NOT NULL,
	"token_id" text,
	"action" text NOT NULL,
	"subject" text NOT NULL,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "deprecations" (
	"version_id" integer PRIMARY KEY NOT NULL,
	"message" text NOT NULL,
	"deprecated_at" text NOT NULL,
	"owner_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "download_counts" (
	"version_id" integer NOT NULL,
	"day" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "download_counts_version_id_day_pk" PRIMARY KEY("version_id","day")
);
--> statement-breakpoint
CREATE TABLE "owners" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "owners_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "package_owners" (
	"package_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	"added_at" text NOT NULL,
	CONSTRAINT "package_owners_package_id_owner_id_pk" PRIMARY KEY("package_id","owner_id")
);
--> statement-breakpoint
CREATE TABLE "package_search" (
	"package_id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"keywords" jsonb NOT NULL,
	"version" text NOT NULL,
	"document" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"skeleton" text NOT NULL,
	"created_at" text NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registry_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scope_owners" (
	"scope" text NOT NULL,
	"owner_id" integer NOT NULL,
	"added_at" text NOT NULL,
	CONSTRAINT "scope_owners_scope_owner_id_pk" PRIMARY KEY("scope","owner_id")
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"hash" text NOT NULL,
	"scope" text NOT NULL,
	"description" text,
	"created_at" text NOT NULL,
	"expires_at" text,
	"revoked_at" text,
	"seq" serial NOT NULL
);
--> statement-breakpoint
CREATE TABLE "versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"package_id" integer NOT NULL,
	"version" text NOT NULL,
	"prerelease" boolean NOT NULL,
	"integrity" text NOT NULL,
	"size" integer NOT NULL,
	"manifest" jsonb NOT NULL,
	"capabilities" jsonb NOT NULL,
	"effects" jsonb NOT NULL,
	"readme" text,
	"published_at" text NOT NULL,
	"published_by" integer NOT NULL,
	"signature" text NOT NULL,
	"key_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "yanks" (
	"version_id" integer PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"yanked_at" text NOT NULL,
	"owner_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "advisories" ADD CONSTRAINT "advisories_created_by_owners_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deprecations" ADD CONSTRAINT "deprecations_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deprecations" ADD CONSTRAINT "deprecations_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_counts" ADD CONSTRAINT "download_counts_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_owners" ADD CONSTRAINT "package_owners_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_owners" ADD CONSTRAINT "package_owners_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_search" ADD CONSTRAINT "package_search_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scope_owners" ADD CONSTRAINT "scope_owners_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "versions" ADD CONSTRAINT "versions_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "versions" ADD CONSTRAINT "versions_published_by_owners_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "yanks" ADD CONSTRAINT "yanks_version_id_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "yanks" ADD CONSTRAINT "yanks_owner_id_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advisories_package_idx" ON "advisories" USING btree ("package_name");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "package_search_document_idx" ON "package_search" USING gin ("document");--> statement-breakpoint
CREATE UNIQUE INDEX "packages_name_unique" ON "packages" USING btree ("name");--> statement-breakpoint
CREATE INDEX "packages_skeleton_idx" ON "packages" USING btree ("skeleton");--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_hash_unique" ON "tokens" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "tokens_owner_idx" ON "tokens" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "versions_package_version_unique" ON "versions" USING btree ("package_id","version");--> statement-breakpoint
CREATE INDEX "versions_integrity_idx" ON "versions" USING btree ("integrity");--> statement-breakpoint
CREATE INDEX "versions_published_at_idx" ON "versions" USING btree ("published_at");