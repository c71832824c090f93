// Type-level inference of a tool's input from its schema: Standard Schema, TypeBox or an `as const` JSON Schema.
import type { JsonObject } from "../types.js";

/** The part of the Standard Schema interface (standardschema.dev) that toolwire reads; copied, as the spec invites. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value: Output; readonly issues?: undefined }
      | { readonly issues: readonly StandardSchemaIssue[] }
      | Promise<
          { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardSchemaIssue[] }
        >;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** Anything `defineTool` takes as `inputSchema`. */
export type ToolSchemaInput = JsonObject | StandardSchemaV1 | object;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type InferTypeName<T> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? unknown[]
          : T extends "object"
            ? Record<string, unknown>
            : unknown;

type RequiredKeys<S> = S extends { readonly required: readonly (infer K)[] } ? K & string : never;
type IsOptional<S, K extends string, P> = P extends { readonly "~optional": true }
  ? true
  : S extends { readonly "~kind": string }
    ? false
    : K extends RequiredKeys<S>
      ? false
      : true;

type InferObject<S, P> = Simplify<
  { -readonly [K in keyof P & string as IsOptional<S, K, P[K]> extends true ? never : K]: InferJsonSchema<P[K]> } & {
    -readonly [K in keyof P & string as IsOptional<S, K, P[K]> extends true ? K : never]?: InferJsonSchema<P[K]>;
  }
>;

/** The TypeScript type of a value matching a JSON Schema known at compile time; `unknown` where it cannot tell. */
type InferJsonSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer A)[] }
      ? InferJsonSchema<A>
      : S extends { readonly oneOf: readonly (infer O)[] }
        ? InferJsonSchema<O>
        : S extends { readonly type: "object"; readonly properties: infer P }
          ? InferObject<S, P>
          : S extends { readonly type: "array"; readonly items: infer I }
            ? InferJsonSchema<I>[]
            : S extends { readonly type: readonly (infer T)[] }
              ? InferTypeName<T>
              : S extends { readonly type: infer T }
                ? InferTypeName<T>
                : unknown;

/** The input type `execute` receives for a schema. */
export type InferToolInput<S> =
  S extends StandardSchemaV1<unknown, infer Output>
    ? Output
    : string extends keyof S
      ? JsonObject
      : InferJsonSchema<S> extends infer I
        ? unknown extends I
          ? JsonObject
          : I
        : JsonObject;
