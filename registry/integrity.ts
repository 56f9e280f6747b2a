/** The runner defines content identity (the lockfile and the store use it); the registry shares it. */
export { computeIntegrity, integrityFromHex, integrityHex } from "../runner/integrity.js";
