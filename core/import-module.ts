/**
 * `import()` of a URL (a file: or data: URL) at run time: the one place hookyard loads code that is
 * not part of its build, such as a compiled workspace hook. One place so that the exec client's
 * in-process bundle, which runs as a script and has no `import()` of its own, can put the client's
 * in its stead (cli/daemon/in-process-bundle.ts).
 */
export function importModule(url: string): Promise<unknown> {
  return import(url);
}
