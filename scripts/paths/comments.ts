// The comments of a source file, found with a cheap scan instead of a parser: everything that is
// not comment text becomes a space, line breaks are kept, so a match in the result has the line
// (and column) of the source. Strings are skipped where that is cheap, so that a path in a string
// literal (test fixtures, SQL, messages) is not read as a comment:
//   - "c": TypeScript, JavaScript, Prisma schemas, tsconfig: `//` and `/* */`; '', "" and ``
//     strings (a template's `${...}` is read as part of the string, comments in it are missed);
//     a regex literal is recognised by what comes before its `/` (an operator, a bracket, start
//     or a keyword like `return`), the usual heuristic, so `/"/` or `/\/\//` opens no string or comment;
//   - "sql": `--` and `/* */`; '' strings and "" identifiers. Dollar-quoted function bodies are
//     read as code, so the comments inside a trigger's function are found too;
//   - "hash": shell scripts and GraphQL: `#` at the start of a line or after a blank, outside
//     '' and "" strings.

export type CommentSyntax = "c" | "sql" | "hash";

/** Words after which a `/` starts a regex literal, not a division. */
const beforeRegex = /(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|void|yield|await|throw|delete|new)$/;

export function commentsOnly(text: string, syntax: CommentSyntax): string {
  const out: string[] = [];
  // What the scan is in; the closing quote or delimiter it waits for, when in a string or comment.
  let state: "code" | "line" | "block" | "string" | "regex" = "code";
  let quote = "";
  let inClass = false; // inside a regex's [...]
  let lastCode = ""; // the code read on this line, for the regex heuristic (trailing blanks trimmed)
  const lineComment = syntax === "c" ? "//" : syntax === "sql" ? "--" : "#";
  const quotes = syntax === "c" ? "'\"`" : "'\"";

  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "\n") {
      out.push("\n");
      if (state === "line" || state === "regex") state = "code";
      // Only template literals and shell strings go on over a line break; '' and "" in TypeScript do not.
      if (state === "string" && syntax === "c" && quote !== "`") state = "code";
      lastCode = "";
      continue;
    }
    if (state === "line") {
      out.push(c);
      continue;
    }
    if (state === "block") {
      if (c === "*" && next === "/") {
        out.push("  ");
        i++;
        state = "code";
      } else out.push(c);
      continue;
    }
    if (state === "string") {
      if (c === "\\" && syntax !== "sql" && !(syntax === "hash" && quote === "'")) {
        out.push(next === "\n" ? " " : "  ");
        if (next !== "\n") i++;
      } else {
        if (c === quote) state = "code";
        out.push(" ");
      }
      continue;
    }
    if (state === "regex") {
      if (c === "\\") {
        out.push("  ");
        i++;
        continue;
      }
      if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      else if (c === "/" && !inClass) state = "code";
      out.push(" ");
      continue;
    }
    // code
    const opensLine =
      syntax === "hash" ? c === "#" && (i === 0 || /\s/.test(text[i - 1])) : text.startsWith(lineComment, i);
    if (opensLine) {
      state = "line";
      out.push(" ".repeat(lineComment.length));
      i += lineComment.length - 1;
      continue;
    }
    if (syntax !== "hash" && c === "/" && next === "*") {
      state = "block";
      out.push("  ");
      i++;
      continue;
    }
    if (quotes.includes(c)) {
      state = "string";
      quote = c;
      out.push(" ");
      continue;
    }
    if (syntax === "c" && c === "/") {
      const before = lastCode.trimEnd();
      if (before === "" || /[(,=:[!&|?{};+\-*%<>~^]$/.test(before) || beforeRegex.test(before)) {
        state = "regex";
        inClass = false;
        out.push(" ");
        continue;
      }
    }
    lastCode += c;
    out.push(" ");
  }
  return out.join("");
}
