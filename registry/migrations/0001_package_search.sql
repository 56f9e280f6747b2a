-- Full-text index for GET /v1/search (drizzle-kit does not model virtual tables). rowid is
-- packages.id; the registry rewrites a package's row whenever its latest version changes.
-- unicode61 splits names at - . _ so "redact-secrets" is found by "secrets".
CREATE VIRTUAL TABLE `package_search` USING fts5(
	`name`,
	`description`,
	`keywords`,
	`version` UNINDEXED,
	tokenize = 'unicode61 remove_diacritics 2'
);
