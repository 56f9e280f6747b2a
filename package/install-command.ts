/**
 * The install command a package page and `hookyard info` show, for `spec` (`name` or
 * `name@version`). It grants every capability that version requests: pasted where no one answers
 * the grant prompt (CI, a script), install grants only what --grant names, and a hook without its
 * capabilities cannot do its job.
 */
export function installCommand(spec: string, grants: readonly string[]): string {
  const words = ["hookyard", "install", shellWord(spec), "--sandbox"];
  for (const grant of grants) words.push("--grant", shellWord(grant));
  return words.join(" ");
}

/** Characters a POSIX shell reads literally in a word (no globbing, expansion or splitting). */
const plainWord = /^[A-Za-z0-9@%+=:,./_-]+$/;

/**
 * A word quoted for sh, bash and zsh alike. A grant's path is the publisher's text (spaces, `$(…)`,
 * `*`, quotes) and an IPv6 grant's brackets glob; single quotes keep all of it literal, and a
 * single quote inside is closed, escaped and reopened.
 */
export function shellWord(text: string): string {
  return plainWord.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
