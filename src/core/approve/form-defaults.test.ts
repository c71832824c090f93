import { describe, expect, it } from "vitest";
import { fieldsWithoutDefaults, formDefaults } from "./form-defaults.js";

const FORM = {
  type: "object",
  properties: {
    name: { type: "string", default: "Ada" },
    age: { type: "integer", default: 36 },
    note: { type: "string" },
  },
  required: ["name", "note"],
};

describe("formDefaults", () => {
  it("reads each property's default, and nothing from a schema that is not a form", () => {
    expect(formDefaults(FORM)).toEqual({ name: "Ada", age: 36 });
    expect(formDefaults(undefined)).toEqual({});
    expect(formDefaults({ properties: "oops" })).toEqual({});
  });
});

describe("fieldsWithoutDefaults", () => {
  it("names the required fields a plain yes cannot fill, and nothing for a form without required ones", () => {
    expect(fieldsWithoutDefaults(FORM)).toEqual(["note"]);
    expect(fieldsWithoutDefaults({ ...FORM, required: undefined })).toEqual([]);
    expect(fieldsWithoutDefaults({ required: [1, "x", null] })).toEqual(["x"]);
    expect(fieldsWithoutDefaults("oops")).toEqual([]);
  });
});
