import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolCallError } from "../core/errors.js";
import { BuiltinToolsError } from "./builtin-tools-error.js";
import { createWorkspace, type Workspace } from "./workspace.js";

let base: string;
let root: string;
let outside: string;
let workspace: Workspace;

async function refusal(path: string): Promise<ToolCallError> {
  try {
    await workspace.resolve("read", path);
  } catch (error) {
    if (error instanceof ToolCallError) return error;
    throw error;
  }
  throw new Error(`${path} was not refused`);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "toolwire-guard-")));
  root = join(base, "root");
  outside = join(base, "outside");
  await mkdir(join(root, "src", "deep"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "TOP-SECRET-CONTENT");
  await writeFile(join(root, "src", "a.ts"), "export {};\n");
  await symlink("/etc", join(root, "etc-link"));
  await symlink(join(outside, "secret.txt"), join(root, "secret-link"));
  await symlink(outside, join(root, "outside-dir"));
  await symlink(join(root, "src"), join(root, "src-link"));
  await symlink(join(root, "missing-target"), join(root, "dangling"));
  await symlink("loop-b", join(root, "loop-a"));
  await symlink("loop-a", join(root, "loop-b"));
  await symlink(root, join(base, "root-alias"));
  workspace = createWorkspace(root);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("workspace guard", () => {
  it("resolves a relative path inside the root, with a display path relative to it", async () => {
    const resolved = await workspace.resolve("read", "src/a.ts");
    expect(resolved).toEqual({ real: join(root, "src", "a.ts"), display: "src/a.ts", exists: true });
  });

  it("shows the root itself as '.'", async () => {
    expect((await workspace.resolve("ls", ".")).display).toBe(".");
    expect((await workspace.resolve("ls", "")).display).toBe(".");
  });

  it("resolves a missing path under an existing folder as not existing, inside the root", async () => {
    const resolved = await workspace.resolve("write", "src/new/deeper/file.ts");
    expect(resolved).toEqual({
      real: join(root, "src", "new", "deeper", "file.ts"),
      display: "src/new/deeper/file.ts",
      exists: false,
    });
  });

  it("refuses a path that climbs out through '..'", async () => {
    const error = await refusal("../outside/secret.txt");
    expect(error.code).toBe("invalid-input");
    expect(error.message).toContain("is outside the workspace");
    expect(error.message).not.toContain("TOP-SECRET");
  });

  it("allows '..' that stays inside the root", async () => {
    expect((await workspace.resolve("read", "src/deep/../a.ts")).display).toBe("src/a.ts");
  });

  it("refuses an absolute path outside the root", async () => {
    expect((await refusal("/etc/passwd")).message).toContain("is outside the workspace");
    expect((await refusal(join(outside, "secret.txt"))).code).toBe("invalid-input");
  });

  it("accepts an absolute path inside the root, given through the real root or an alias of it", async () => {
    expect((await workspace.resolve("read", join(root, "src", "a.ts"))).display).toBe("src/a.ts");
    const viaAlias = createWorkspace(join(base, "root-alias"));
    expect((await viaAlias.resolve("read", join(base, "root-alias", "src", "a.ts"))).real).toBe(
      join(root, "src", "a.ts"),
    );
    expect((await viaAlias.resolve("read", join(root, "src", "a.ts"))).display).toBe("src/a.ts");
  });

  it("refuses a symlinked folder that leads outside (ln -s /etc)", async () => {
    const error = await refusal("etc-link/passwd");
    expect(error.code).toBe("invalid-input");
    expect(error.message).toContain("resolves outside the workspace through a symbolic link");
  });

  it("refuses a symlinked file that leads outside, without its content or target in the message", async () => {
    const error = await refusal("secret-link");
    expect(error.message).not.toContain("TOP-SECRET");
    expect(error.message).not.toContain(outside);
  });

  it("refuses a path that does not exist yet under a link that leads outside", async () => {
    expect((await refusal("outside-dir/new-file.txt")).message).toContain("through a symbolic link");
  });

  it("follows a symlink that stays inside the root", async () => {
    expect((await workspace.resolve("read", "src-link/a.ts")).real).toBe(join(root, "src", "a.ts"));
  });

  it("counts a dangling link as outside, even below it", async () => {
    expect((await refusal("dangling")).message).toContain("dangling symbolic link");
    expect((await refusal("dangling/child.txt")).message).toContain("dangling symbolic link");
  });

  it("refuses a symbolic link loop", async () => {
    expect((await refusal("loop-a")).message).toContain("symbolic link loop");
  });

  it("refuses a NUL character in a path", async () => {
    expect((await refusal("src/a.ts\0.png")).message).toContain("NUL");
  });

  it("never resolves outside the root, whatever the path (property)", async () => {
    const segment = fc.constantFrom(
      "..",
      ".",
      "src",
      "deep",
      "a.ts",
      "etc-link",
      "secret-link",
      "outside-dir",
      "src-link",
      "dangling",
      "x",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { maxLength: 6 }), fc.boolean(), async (segments, absolute) => {
        const path = (absolute ? `${root}/` : "") + segments.join("/");
        try {
          const resolved = await workspace.resolve("read", path);
          return resolved.real === root || resolved.real.startsWith(`${root}/`);
        } catch (error) {
          return error instanceof ToolCallError && error.code === "invalid-input";
        }
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a path too long for the file system with a typed error, quoting at most 200 characters", async () => {
    for (const path of ["a".repeat(300), "src/".repeat(2000)]) {
      const error = await refusal(path);
      expect(error.code).toBe("invalid-input");
      expect(error.message).toContain("is too long for the file system");
      expect(error.message).toContain(`${path.slice(0, 200)}…"`);
      expect(error.message.length).toBeLessThan(400);
    }
  });

  it("quotes a long path outside the root cut to 200 characters", async () => {
    const error = await refusal(`/elsewhere/${"x".repeat(5000)}`);
    expect(error.message).toContain("is outside the workspace");
    expect(error.message.length).toBeLessThan(400);
  });

  it("answers any string with a path inside or a typed, bounded error (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 3000 }), async (path) => {
        try {
          const resolved = await workspace.resolve("read", path);
          expect(workspace.contains(resolved.real)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(ToolCallError);
          expect((error as ToolCallError).message.length).toBeLessThan(1600);
          expect((error as ToolCallError).message).not.toContain("TOP-SECRET");
        }
      }),
      { numRuns: 300 },
    );
  });

  it("throws BuiltinToolsError for a root that does not exist or is a file", () => {
    expect(() => createWorkspace(join(base, "nope"))).toThrow(BuiltinToolsError);
    try {
      createWorkspace(join(root, "src", "a.ts"));
    } catch (error) {
      expect((error as BuiltinToolsError).code).toBe("invalid-workspace-root");
    }
    expect.assertions(2);
  });
});
