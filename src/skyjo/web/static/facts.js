// What the server knows that the pages need, said once on the server (skyjo.web.facts) and
// written into each page it serves: the bots a seat may be given (`bots`, weakest first, each
// named by the language tables' `level.x`) and the level offered first (`default_bot`), the
// players' bounds, the rule variants (`variants`: skyjo.rules.VARIANTS, read by variants.js),
// the turn timer's bounds and the longest name, title and chat line.
// The page keeps them offline (the service worker keeps the page). Read once, on import.

/** The facts in the page's `<script type="application/json" id="skyjo-facts">`, else {}. */
function read() {
  const block = globalThis.document?.getElementById?.("skyjo-facts");
  try {
    return block ? JSON.parse(block.textContent) : {};
  } catch {
    return {};
  }
}

export const FACTS = Object.freeze(read());
