// A JSON Schema as a TypeScript type for a model to read: small, synchronous, and total over any input.
import { isRecord, ownValue } from "../../core/json.js";
import { docComment } from "./doc-comment.js";

/** A schema's TypeScript type, as `schemaToType` prints it. */
export interface SchemaType {
  /** The type's text. */
  readonly text: string;
  /** False when `{}` is a value of the type (an object without required properties, a record, `unknown`). */
  readonly required: boolean;
}

/** Options of `schemaToType`. */
export interface SchemaToTypeOptions {
  /** The indent of the line the type starts on; lines after the first are indented from it. Default `""`. */
  readonly indent?: string;
  /** Whether properties get their descriptions and defaults as doc comments. Default true. */
  readonly docs?: boolean;
}

type TypeNode =
  | { readonly kind: "name"; readonly text: string }
  | { readonly kind: "union" | "intersection"; readonly members: readonly TypeNode[] }
  | { readonly kind: "array"; readonly element: TypeNode }
  | { readonly kind: "tuple"; readonly elements: readonly TypeNode[]; readonly rest?: TypeNode }
  | { readonly kind: "record"; readonly value: TypeNode }
  | { readonly kind: "object"; readonly properties: readonly PropertyNode[]; readonly index?: TypeNode };

interface PropertyNode {
  readonly name: string;
  readonly optional: boolean;
  readonly type: TypeNode;
  readonly doc: string;
}

interface Walk {
  readonly root: unknown;
  readonly docs: boolean;
  /** The `$ref`s being expanded: meeting one again is a cycle, which ends in `unknown`. */
  readonly expanding: Set<string>;
  /** Schema nodes left to visit: past it every node is `unknown`, so a schema of many shared refs stays bounded. */
  nodesLeft: number;
}

const UNKNOWN: TypeNode = { kind: "name", text: "unknown" };
const NEVER: TypeNode = { kind: "name", text: "never" };
const MAX_DEPTH = 24;
const MAX_NODES = 4000;
/** An object type without doc comments stays on one line up to this many characters. */
const ONE_LINE = 100;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * `schema` as a TypeScript type: `$ref` (local, `#` and `#/…` pointers; a cycle or a remote ref is `unknown`),
 * `anyOf`/`oneOf` as unions, `allOf` as an intersection, `const` and `enum` as literals, `type` (one or an array),
 * `nullable`, `properties` with `required` (property descriptions and defaults as doc comments),
 * `additionalProperties` as an index signature, `items` and `prefixItems` (tuples). Anything else, `format`
 * included, adds nothing; a schema saying nothing it knows is `unknown`. Never throws; the same schema always gives
 * the same text. Deep or huge schemas end in `unknown` past a fixed depth and number of nodes.
 */
export function schemaToType(schema: unknown, options: SchemaToTypeOptions = {}): SchemaType {
  const { indent = "", docs = true } = options;
  const node = convert(schema, { root: schema, docs, expanding: new Set(), nodesLeft: MAX_NODES }, 0);
  return { text: print(node, indent), required: !acceptsEmptyObject(node) };
}

function convert(schema: unknown, walk: Walk, depth: number): TypeNode {
  if (schema === false) return NEVER;
  if (!isRecord(schema) || depth > MAX_DEPTH || walk.nodesLeft-- <= 0) return UNKNOWN;
  return nullable(schema, convertKeywords(schema, walk, depth));
}

function convertKeywords(schema: Record<string, unknown>, walk: Walk, depth: number): TypeNode {
  if (Object.hasOwn(schema, "const")) return literal(schema.const, depth);
  const enumValues = ownValue(schema, "enum");
  if (Array.isArray(enumValues)) return union(enumValues.map((value) => literal(value, depth)));
  const parts: TypeNode[] = [];
  const ref = ownValue(schema, "$ref");
  if (typeof ref === "string") parts.push(convertRef(ref, walk, depth));
  const structural = convertType(schema, walk, depth);
  if (structural !== undefined) parts.push(structural);
  for (const keyword of ["anyOf", "oneOf"]) {
    const options = ownValue(schema, keyword);
    if (Array.isArray(options)) parts.push(union(options.map((option) => convert(option, walk, depth + 1))));
  }
  const all = ownValue(schema, "allOf");
  if (Array.isArray(all)) parts.push(...all.map((part) => convert(part, walk, depth + 1)));
  return intersection(parts);
}

function nullable(schema: Record<string, unknown>, type: TypeNode): TypeNode {
  return ownValue(schema, "nullable") === true ? union([type, { kind: "name", text: "null" }]) : type;
}

function convertRef(ref: string, walk: Walk, depth: number): TypeNode {
  if (walk.expanding.has(ref)) return UNKNOWN;
  const target = resolveRef(walk.root, ref);
  if (target === undefined) return UNKNOWN;
  walk.expanding.add(ref);
  const type = convert(target, walk, depth + 1);
  walk.expanding.delete(ref);
  return type;
}

/** The node a local reference (`#`, `#/$defs/Item`; JSON Pointer escapes and percent-encoding undone) names. */
function resolveRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node = root;
  for (const raw of ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = ownValue(node, key);
  }
  return node;
}

function convertType(schema: Record<string, unknown>, walk: Walk, depth: number): TypeNode | undefined {
  const type = ownValue(schema, "type");
  const names = Array.isArray(type) ? type : typeof type === "string" ? [type] : [];
  if (names.length === 0) {
    if (isRecord(ownValue(schema, "properties"))) names.push("object");
    else if (Object.hasOwn(schema, "items") || Object.hasOwn(schema, "prefixItems")) names.push("array");
    else return undefined;
  }
  return union(names.map((name) => convertTypeName(name, schema, walk, depth)));
}

function convertTypeName(name: unknown, schema: Record<string, unknown>, walk: Walk, depth: number): TypeNode {
  switch (name) {
    case "string":
    case "boolean":
    case "null":
      return { kind: "name", text: name };
    case "number":
    case "integer":
      return { kind: "name", text: "number" };
    case "array":
      return convertArray(schema, walk, depth);
    case "object":
      return convertObject(schema, walk, depth);
    default:
      return UNKNOWN;
  }
}

function convertArray(schema: Record<string, unknown>, walk: Walk, depth: number): TypeNode {
  const items = ownValue(schema, "items");
  // draft 2020-12 tuples are `prefixItems`; earlier drafts put the array in `items`.
  const prefix = ownValue(schema, "prefixItems") ?? (Array.isArray(items) ? items : undefined);
  if (Array.isArray(prefix)) {
    const elements = prefix.map((item) => convert(item, walk, depth + 1));
    const restSchema = Array.isArray(items) ? ownValue(schema, "additionalItems") : items;
    const rest = isRecord(restSchema) ? convert(restSchema, walk, depth + 1) : undefined;
    return rest === undefined ? { kind: "tuple", elements } : { kind: "tuple", elements, rest };
  }
  return { kind: "array", element: items === undefined ? UNKNOWN : convert(items, walk, depth + 1) };
}

function convertObject(schema: Record<string, unknown>, walk: Walk, depth: number): TypeNode {
  const properties = ownValue(schema, "properties");
  const additional = ownValue(schema, "additionalProperties");
  if (!isRecord(properties)) {
    if (additional === false) return { kind: "object", properties: [] };
    return { kind: "record", value: additional === undefined ? UNKNOWN : convert(additional, walk, depth + 1) };
  }
  const requiredList = ownValue(schema, "required");
  const required = new Set(Array.isArray(requiredList) ? requiredList.filter((name) => typeof name === "string") : []);
  const members = Object.keys(properties).map((name): PropertyNode => {
    const property = properties[name];
    return {
      name,
      optional: !required.has(name),
      type: convert(property, walk, depth + 1),
      doc: walk.docs ? propertyDoc(property, walk.root) : "",
    };
  });
  // A property's type need not fit a narrower index signature, so extra properties beside named ones are `unknown`.
  const index = additional === undefined || additional === false ? undefined : UNKNOWN;
  return index === undefined ? { kind: "object", properties: members } : { kind: "object", properties: members, index };
}

/** A property's description (its own, else its `$ref` target's) and its default, on one line. */
function propertyDoc(property: unknown, root: unknown): string {
  if (!isRecord(property)) return "";
  let description = ownValue(property, "description");
  const ref = ownValue(property, "$ref");
  if (typeof description !== "string" && typeof ref === "string") {
    const target = resolveRef(root, ref);
    if (isRecord(target)) description = ownValue(target, "description");
  }
  const words = typeof description === "string" ? description.split(/\s+/).filter(Boolean).join(" ") : "";
  if (!Object.hasOwn(property, "default")) return words;
  const json = JSON.stringify(property.default) ?? "undefined";
  const shown = json.length > 80 ? `${json.slice(0, 77)}...` : json;
  return words === "" ? `Default: ${shown}.` : `${words}${/[.!?]$/.test(words) ? "" : "."} Default: ${shown}.`;
}

function literal(value: unknown, depth: number): TypeNode {
  if (typeof value === "string") return { kind: "name", text: stringLiteral(value) };
  if (typeof value === "number") return { kind: "name", text: Number.isFinite(value) ? String(value) : "number" };
  if (typeof value === "boolean" || value === null) return { kind: "name", text: String(value) };
  if (depth > MAX_DEPTH) return UNKNOWN;
  if (Array.isArray(value)) return { kind: "tuple", elements: value.map((item) => literal(item, depth + 1)) };
  if (isRecord(value)) {
    const properties = Object.keys(value).map((name) => ({
      name,
      optional: false,
      type: literal(value[name], depth + 1),
      doc: "",
    }));
    return { kind: "object", properties };
  }
  return UNKNOWN;
}

/** A string as a TypeScript string literal: JSON's escapes, plus the two line separators JSON leaves raw. */
function stringLiteral(value: string): string {
  return JSON.stringify(value).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

function union(members: readonly TypeNode[]): TypeNode {
  const flat = members.flatMap((member) => (member.kind === "union" ? member.members : [member]));
  if (flat.some((member) => member === UNKNOWN)) return UNKNOWN;
  return (
    combine(
      "union",
      flat.filter((member) => member !== NEVER),
    ) ?? NEVER
  );
}

function intersection(members: readonly TypeNode[]): TypeNode {
  const flat = members.flatMap((member) => (member.kind === "intersection" ? member.members : [member]));
  return (
    combine(
      "intersection",
      flat.filter((member) => member !== UNKNOWN),
    ) ?? UNKNOWN
  );
}

/** One node of distinct members (by their text), the first of each kept in order; undefined for none. */
function combine(kind: "union" | "intersection", members: readonly TypeNode[]): TypeNode | undefined {
  const seen = new Set<string>();
  const distinct = members.filter((member) => {
    const text = print(member, "");
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
  if (distinct.length <= 1) return distinct[0];
  return { kind, members: distinct };
}

function acceptsEmptyObject(node: TypeNode): boolean {
  if (node.kind === "object") return node.properties.every((property) => property.optional);
  if (node.kind === "union") return node.members.some(acceptsEmptyObject);
  if (node.kind === "intersection") return node.members.every(acceptsEmptyObject);
  return node.kind === "record" || node === UNKNOWN;
}

function print(node: TypeNode, indent: string): string {
  switch (node.kind) {
    case "name":
      return node.text;
    case "union":
      return node.members.map((member) => operand(member, indent, "union")).join(" | ");
    case "intersection":
      return node.members.map((member) => operand(member, indent, "intersection")).join(" & ");
    case "array":
      return `${operand(node.element, indent, "array")}[]`;
    case "tuple": {
      const elements = node.elements.map((element) => print(element, indent));
      if (node.rest !== undefined) elements.push(`...${operand(node.rest, indent, "array")}[]`);
      return `[${elements.join(", ")}]`;
    }
    case "record":
      return `Record<string, ${print(node.value, indent)}>`;
    case "object":
      return printObject(node, indent);
  }
}

/** A member of a union, an intersection or an array type, in parentheses where the operator would bind wrongly. */
function operand(node: TypeNode, indent: string, within: "union" | "intersection" | "array"): string {
  const text = print(node, indent);
  const loose = node.kind === "union" || (node.kind === "intersection" && within === "array");
  return loose ? `(${text})` : text;
}

function printObject(node: Extract<TypeNode, { kind: "object" }>, indent: string): string {
  if (node.properties.length === 0)
    return node.index === undefined ? "{}" : `Record<string, ${print(node.index, indent)}>`;
  const inner = `${indent}  `;
  const members = node.properties.map((property) => ({
    doc: property.doc,
    text: `${propertyName(property.name)}${property.optional ? "?" : ""}: ${print(property.type, inner)}`,
  }));
  if (node.index !== undefined) members.push({ doc: "", text: `[key: string]: ${print(node.index, inner)}` });
  const oneLine = `{ ${members.map((member) => member.text).join("; ")} }`;
  if (oneLine.length <= ONE_LINE && members.every((member) => member.doc === "" && !member.text.includes("\n"))) {
    return oneLine;
  }
  const lines = members.flatMap((member) => [
    ...(member.doc === "" ? [] : [`${inner}${docComment(member.doc, inner)}`]),
    `${inner}${member.text};`,
  ]);
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/** A property or method name: bare when it is an identifier, else a string literal. */
export function propertyName(name: string): string {
  return IDENTIFIER.test(name) ? name : stringLiteral(name);
}
