// Building the page: every text goes in with textContent, never as HTML.

/**
 * An element: h("button", {class: "x", onclick: f, "aria-label": "..."}, "text", child).
 * Attributes starting with "on" are listeners; strings and numbers become text nodes.
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    else if (name === "value") element.value = value;
    else if (name === "checked") element.checked = Boolean(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of `element`, keeping the focus on the element with the same data-key. */
export function replace(element, ...children) {
  const focused = document.activeElement?.dataset?.key;
  element.replaceChildren();
  append(element, children);
  if (focused) element.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}
