/** The workspace config file's name, from the runner's light module (finding the root loads no hook engine). */
export { configFileName } from "../../runner/workspace-root.js";
