import type { FastifySchemaCompiler } from "fastify";
import * as z from "zod";
import { describeIssues } from "../../core/errors.js";

/**
 * Route schemas are written once, in zod: the JSON Schema fastify and the OpenAPI document see is
 * generated from it, and requests are validated by the zod schema itself (refinements included),
 * found again through this map.
 */
const zodOf = new WeakMap<object, z.ZodType>();

export function routeSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  zodOf.set(json, schema);
  return json;
}

export const zodValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, url, httpPart }) => {
  const zodSchema = zodOf.get(schema as object);
  if (!zodSchema) throw new Error(`the ${httpPart} schema of ${url} was not made with routeSchema()`);
  return (data) => {
    const result = zodSchema.safeParse(data);
    return result.success
      ? { value: result.data }
      : { error: new RequestInvalid(result.error, httpPart ?? "") };
  };
};

/** A request part that failed its schema; the error handler turns it into REG_ERR_VALIDATION. */
export class RequestInvalid extends Error {
  constructor(
    readonly issues: z.ZodError,
    readonly part: string,
  ) {
    super(describeIssues(issues, part));
  }
}
