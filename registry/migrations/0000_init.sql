CREATE TABLE `advisories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_name` text NOT NULL,
	`range` text NOT NULL,
	`severity` text NOT NULL,
	`text` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `advisories_package_idx` ON `advisories` (`package_name`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text NOT NULL,
	`actor` text NOT NULL,
	`token_id` text,
	`action` text NOT NULL,
	`subject` text NOT NULL,
	`details` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE TABLE `deprecations` (
	`version_id` integer PRIMARY KEY NOT NULL,
	`message` text NOT NULL,
	`deprecated_at` text NOT NULL,
	`owner_id` integer NOT NULL,
	FOREIGN KEY (`version_id`) REFERENCES `versions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `download_counts` (
	`version_id` integer NOT NULL,
	`day` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`version_id`, `day`),
	FOREIGN KEY (`version_id`) REFERENCES `versions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `owners` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `owners_name_unique` ON `owners` (`name`);--> statement-breakpoint
CREATE TABLE `package_owners` (
	`package_id` integer NOT NULL,
	`owner_id` integer NOT NULL,
	`added_at` text NOT NULL,
	PRIMARY KEY(`package_id`, `owner_id`),
	FOREIGN KEY (`package_id`) REFERENCES `packages`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `packages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`skeleton` text NOT NULL,
	`created_at` text NOT NULL,
	`downloads` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `packages_name_unique` ON `packages` (`name`);--> statement-breakpoint
CREATE INDEX `packages_skeleton_idx` ON `packages` (`skeleton`);--> statement-breakpoint
CREATE TABLE `scope_owners` (
	`scope` text NOT NULL,
	`owner_id` integer NOT NULL,
	`added_at` text NOT NULL,
	PRIMARY KEY(`scope`, `owner_id`),
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` integer NOT NULL,
	`hash` text NOT NULL,
	`scope` text NOT NULL,
	`description` text,
	`created_at` text NOT NULL,
	`expires_at` text,
	`revoked_at` text,
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_hash_unique` ON `tokens` (`hash`);--> statement-breakpoint
CREATE INDEX `tokens_owner_idx` ON `tokens` (`owner_id`);--> statement-breakpoint
CREATE TABLE `versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`package_id` integer NOT NULL,
	`version` text NOT NULL,
	`prerelease` integer NOT NULL,
	`integrity` text NOT NULL,
	`size` integer NOT NULL,
	`manifest` text NOT NULL,
	`capabilities` text NOT NULL,
	`effects` text NOT NULL,
	`readme` text,
	`published_at` text NOT NULL,
	`published_by` integer NOT NULL,
	`signature` text NOT NULL,
	`key_id` text NOT NULL,
	FOREIGN KEY (`package_id`) REFERENCES `packages`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`published_by`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `versions_package_version_unique` ON `versions` (`package_id`,`version`);--> statement-breakpoint
CREATE INDEX `versions_integrity_idx` ON `versions` (`integrity`);--> statement-breakpoint
CREATE TABLE `yanks` (
	`version_id` integer PRIMARY KEY NOT NULL,
	`reason` text NOT NULL,
	`yanked_at` text NOT NULL,
	`owner_id` integer NOT NULL,
	FOREIGN KEY (`version_id`) REFERENCES `versions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`owner_id`) REFERENCES `owners`(`id`) ON UPDATE no action ON DELETE no action
);
