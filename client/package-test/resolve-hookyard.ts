/**
 * A module resolve hook for the test process `hookyard test` starts: `hookyard` and
 * `hookyard/<subpath>` resolve as usual when the package has hookyard installed, and otherwise to
 * the hookyard that runs the tests. A package made by `hookyard new` declares no dependency on
 * hookyard, so its tests run offline on a machine whose registry has no hookyard, and a package
 * published under that name is never fetched for them.
 */
interface ResolveContext {
  parentURL?: string;
  conditions: string[];
  importAttributes: Record<string, string>;
}
type NextResolve = (specifier: string, context?: ResolveContext) => Promise<{ url: string }>;

export async function resolve(
  specifier: string,
  context: ResolveContext,
  nextResolve: NextResolve,
): Promise<{ url: string }> {
  if (specifier !== "hookyard" && !specifier.startsWith("hookyard/")) return nextResolve(specifier, context);
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") throw error;
    // From a file inside hookyard's own package, its name resolves to itself through its exports.
    return nextResolve(specifier, { ...context, parentURL: import.meta.url });
  }
}
