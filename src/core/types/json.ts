// JSON values: what tool inputs, JSON Schemas and results' details are made of.

/** A JSON scalar. */
export type JsonPrimitive = string | number | boolean | null;
/** Any JSON value. */
export type JsonValue = JsonPrimitive | readonly JsonValue[] | { readonly [k: string]: JsonValue };
/** A JSON object: what tool inputs and JSON Schemas are. */
export type JsonObject = { readonly [k: string]: JsonValue };
