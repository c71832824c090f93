// How the CLI shows an MCP server's login: the URL on stderr, and a browser only on a terminal with an opener.
import { spawn } from "node:child_process";
import { holdProgressLine } from "./output.js";

/** What `createAuthorizationUrlShower` needs; every field is there to be replaced in tests. */
interface ShowAuthorizationUrlOptions {
  readonly write: (text: string) => void;
  /** Whether a person is at a terminal (stderr is a TTY). A browser is tried only then. */
  readonly interactive: boolean;
  /** Opens a URL in a browser; resolves to whether it could. Default: `xdg-open`, `open` or `start`. */
  readonly openBrowser?: (url: string) => Promise<boolean>;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * A function that prints `MCP server <id> needs a login` with the URL on stderr and, on a terminal unless
 * `TOOLWIRE_NO_BROWSER` is set, tries to open it. The progress line is held back while the login is waited for.
 * `release()` lets it draw again.
 */
export function createAuthorizationUrlShower(options: ShowAuthorizationUrlOptions): {
  readonly show: (serverId: string, url: URL) => Promise<void>;
  readonly release: () => void;
} {
  const releases: (() => void)[] = [];
  const env = options.env ?? process.env;
  return {
    async show(serverId, url) {
      releases.push(holdProgressLine());
      options.write(
        `toolwire: MCP server ${serverId} needs you to log in. Open this URL in a browser:\n  ${url.href}\n`,
      );
      if (!options.interactive || (env.TOOLWIRE_NO_BROWSER ?? "") !== "") return;
      const opened = await (options.openBrowser ?? openInBrowser)(url.href);
      options.write(opened ? "toolwire: opened it in your browser; waiting for the login\n" : "");
    },
    release() {
      for (const release of releases.splice(0)) release();
    },
  };
}

/** Opens a URL with the platform's opener, if there is one; never throws. */
function openInBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", '""', url.replace(/&/g, "^&")]]
        : ["xdg-open", [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args as string[], { stdio: "ignore", detached: true });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
