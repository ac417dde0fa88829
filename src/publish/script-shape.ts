/** What one pass over a script's bytes found, each figure counted up to one past its bound. */
export interface ScriptShape {
  lines: number;
  /** The deepest nesting of `(`, `[`, `{` and template `${`. */
  depth: number;
}

const enum Mode {
  Code,
  SingleQuoted,
  DoubleQuoted,
  Template,
  LineComment,
  BlockComment,
  Regex,
  RegexClass,
}

/** The stack entry of a template's `${`, whose `}` goes back to the template's text. */
const TEMPLATE_HOLE = 1;
const BRACKET = 0;

/** Words after which a `/` starts a regular expression rather than a division. */
const REGEX_AFTER_WORDS = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'instanceof', 'yield', 'await']);

const LF = 0x0a;
const CR = 0x0d;

const isWordByte = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x24 || c >= 0x80;
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === LF || c === CR || c === 0x0b || c === 0x0c;

/**
 * Counts a script's lines and its deepest bracket nesting in one pass over its bytes, without
 * parsing it: a publish refuses what is past its bounds before its parser reads a byte (a parser's
 * tree of millions of lines, or its recursion through thousands of brackets, is what a package
 * could otherwise make a publish thread spend). Brackets inside strings, template text, comments
 * and regular expressions do not count. Whether a `/` starts a regular expression is decided as
 * tokenizers do, by what precedes it; the rare code read wrongly (`{}/2`) loses at most the rest of
 * its line, and whatever nesting hides there still meets the parser's own stack limit, refused the
 * same way. Works on UTF-8 bytes: every byte of a multi-byte character is above 0x7f, so none
 * reads as a bracket, quote or slash. Stops at the first bound passed.
 */
export function scriptShape(code: Uint8Array, maxLines: number, maxDepth: number): ScriptShape {
  const stack = new Uint8Array(maxDepth + 1);
  let mode = Mode.Code;
  let lines = 1;
  let depth = 0;
  let deepest = 0;
  let escaped = false;
  // In code: whether a `/` here starts a regular expression, and where the word before it began.
  let regexAllowed = true;
  let wordStart = -1;
  let wordEnd = -1;
  // A hashbang line (`#!/usr/bin/env node`) is a comment.
  let at = code[0] === 0x23 && code[1] === 0x21 ? 2 : 0;
  if (at === 2) mode = Mode.LineComment;

  const open = (kind: number): boolean => {
    depth += 1;
    if (depth > deepest) deepest = depth;
    if (depth > maxDepth) return false;
    stack[depth - 1] = kind;
    return true;
  };

  for (; at < code.length; at++) {
    const c = code[at]!;
    if (c === LF || (c === CR && code[at + 1] !== LF)) {
      lines += 1;
      if (lines > maxLines) return { lines, depth: deepest };
      // None of these spans lines: an unterminated one (a syntax error) ends with its line.
      if (mode === Mode.LineComment || mode === Mode.Regex || mode === Mode.RegexClass || ((mode === Mode.SingleQuoted || mode === Mode.DoubleQuoted) && !escaped)) mode = Mode.Code;
    }
    if (escaped) {
      escaped = false;
      continue;
    }
    switch (mode) {
      case Mode.Code:
        if (isSpace(c)) continue;
        if (isWordByte(c)) {
          if (wordEnd !== at) wordStart = at;
          wordEnd = at + 1;
          regexAllowed = false;
          continue;
        }
        if (c === 0x2f /* / */) {
          const next = code[at + 1];
          if (next === 0x2f) {
            mode = Mode.LineComment;
            at++;
          } else if (next === 0x2a /* * */) {
            mode = Mode.BlockComment;
            at++;
          } else if (regexAllowed || (wordEnd === lastSignificant(code, at) && REGEX_AFTER_WORDS.has(wordAt(code, wordStart, wordEnd)))) {
            mode = Mode.Regex;
          } else {
            regexAllowed = true;
          }
          continue;
        }
        regexAllowed = true;
        if (c === 0x27 /* ' */) mode = Mode.SingleQuoted;
        else if (c === 0x22 /* " */) mode = Mode.DoubleQuoted;
        else if (c === 0x60 /* ` */) mode = Mode.Template;
        else if (c === 0x28 /* ( */ || c === 0x5b /* [ */ || c === 0x7b /* { */) {
          if (!open(BRACKET)) return { lines, depth: deepest };
        } else if (c === 0x29 /* ) */ || c === 0x5d /* ] */) {
          if (depth > 0 && stack[depth - 1] === BRACKET) depth -= 1;
          regexAllowed = false;
        } else if (c === 0x7d /* } */ && depth > 0) {
          depth -= 1;
          if (stack[depth] === TEMPLATE_HOLE) mode = Mode.Template;
        }
        continue;
      case Mode.SingleQuoted:
      case Mode.DoubleQuoted:
        if (c === 0x5c /* \ */) escaped = true;
        else if (c === (mode === Mode.SingleQuoted ? 0x27 : 0x22)) {
          mode = Mode.Code;
          regexAllowed = false;
        }
        continue;
      case Mode.Template:
        if (c === 0x5c) escaped = true;
        else if (c === 0x60) {
          mode = Mode.Code;
          regexAllowed = false;
        } else if (c === 0x24 /* $ */ && code[at + 1] === 0x7b) {
          at++;
          if (!open(TEMPLATE_HOLE)) return { lines, depth: deepest };
          mode = Mode.Code;
          regexAllowed = true;
        }
        continue;
      case Mode.LineComment:
        continue;
      case Mode.BlockComment:
        if (c === 0x2a && code[at + 1] === 0x2f) {
          mode = Mode.Code;
          at++;
        }
        continue;
      case Mode.Regex:
        if (c === 0x5c) escaped = true;
        else if (c === 0x5b) mode = Mode.RegexClass;
        else if (c === 0x2f) {
          mode = Mode.Code;
          regexAllowed = false;
        }
        continue;
      case Mode.RegexClass:
        if (c === 0x5c) escaped = true;
        else if (c === 0x5d) mode = Mode.Regex;
        continue;
    }
  }
  return { lines, depth: deepest };
}

/** Where the code before `at` last ended something other than space (the index just past it). */
function lastSignificant(code: Uint8Array, at: number): number {
  let before = at;
  while (before > 0 && isSpace(code[before - 1]!)) before--;
  return before;
}

/** The word in `code` between `start` and `end`, when it is short enough to be a keyword. */
const wordAt = (code: Uint8Array, start: number, end: number): string => (end - start > 10 ? '' : String.fromCharCode(...code.subarray(start, end)));
