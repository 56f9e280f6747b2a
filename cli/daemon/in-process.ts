/**
 * What the exec client needs to answer an event in its own process (no daemon up yet, or none
 * answered): exec's command and the CLI's error renderer, in one module so the build bundles them
 * together (in-process-bundle.ts). Together, because the renderer tells hookyard's errors by their
 * classes: a second copy of those classes outside the bundle would render as unexpected errors.
 */
export { default as execCommand } from "../commands/agents/exec.js";
export { renderError } from "../error-message.js";
