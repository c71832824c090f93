// The model's text printed as it streams in, laid out as `toolwire run` prints a whole text: `model  ` and indented
// lines.
import { type Output, paint } from "../output.js";

/** What `run` prints a streamed text with. */
interface StreamedTextPrinter {
  /** Prints one more piece of the text. */
  write(text: string): void;
  /** Ends the text's line; true when any text was printed since the last `end`. */
  end(): boolean;
  /** Whether a text is being printed (its line is not ended yet). */
  readonly open: boolean;
}

/** The indent of a text's later lines, under the text after `model  `. */
const INDENT = "\n       ";

/**
 * A printer whose output is the same as printing the whole text at once (`model  ` and the trimmed text, later
 * lines indented): leading whitespace is dropped and trailing whitespace held back until more text follows it.
 */
export function createStreamedTextPrinter(output: Pick<Output, "write" | "color">): StreamedTextPrinter {
  let open = false;
  let held = "";
  return {
    get open() {
      return open;
    },
    write(piece) {
      const text = open ? piece : piece.replace(/^\s+/, "");
      if (text === "") return;
      if (!open) {
        output.write(`${paint(output, "cyan", "model")}  `);
        open = true;
      }
      const trailing = /\s*$/.exec(text)?.[0] ?? "";
      const body = text.slice(0, text.length - trailing.length);
      if (body === "") {
        held += trailing;
        return;
      }
      output.write(`${held}${body}`.replaceAll("\n", INDENT));
      held = trailing;
    },
    end() {
      const printed = open;
      if (open) output.write("\n");
      open = false;
      held = "";
      return printed;
    },
  };
}
