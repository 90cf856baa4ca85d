// jsdom lays nothing out: every box is 0 px high. The virtualised lists (the inbox's ticket lists,
// the chat) would then find no room for any row. Here their scroll boxes get what a browser would
// give them: a height, content as high as the rows' sizer says, and scrollTo; each of their rows is
// ROW_HEIGHT_PX high. Everything else keeps jsdom's zeros.

export const VIEWPORT_HEIGHT_PX = 600;
export const ROW_HEIGHT_PX = 72;
const VIEWPORT_WIDTH_PX = 400;

const virtualScrollBoxes = new Set(['tickets-scroll', 'messages-scroll']);

// Asked on every size read of every element: kept cheap.
const isScrollBox = (element: Element | null | undefined): element is HTMLElement =>
  element instanceof HTMLElement && virtualScrollBoxes.has(element.dataset.testid ?? '');

// A row sits in the sizer, which sits in the scroll box.
const isRow = (element: Element) =>
  element.hasAttribute('data-index') && isScrollBox(element.parentElement?.parentElement);

// The sizer's height is the rows' total; the box's other children (spinner, footer) take none.
const contentHeight = (box: HTMLElement) =>
  Array.from(box.children).reduce(
    (total, child) => total + (parseFloat((child as HTMLElement).style?.height ?? '') || 0),
    0,
  );

const maxScrollTop = (box: HTMLElement) => Math.max(box.scrollHeight - box.clientHeight, 0);

// Wraps a jsdom getter so that the elements `applies` picks answer `value` instead.
const layOut = <T extends Element>(
  prototype: T,
  property: 'clientHeight' | 'clientWidth' | 'scrollHeight' | 'offsetHeight',
  applies: (element: Element) => boolean,
  value: (element: T) => number,
) => {
  const jsdom = Object.getOwnPropertyDescriptor(prototype, property);
  if (!jsdom?.get) throw new Error(`jsdom has no ${property} getter to wrap`);
  const original = jsdom.get;
  Object.defineProperty(prototype, property, {
    ...jsdom,
    get(this: T) {
      return applies(this) ? value(this) : (original.call(this) as number);
    },
  });
};

// Once per window: a worker's test files share one (vitest.config.ts `isolate: false`), and each
// file's setup asks again.
const laidOut = new WeakSet<object>();

export const layOutVirtualLists = () => {
  if (laidOut.has(Element.prototype)) return;
  laidOut.add(Element.prototype);
  layOut(Element.prototype, 'clientHeight', isScrollBox, () => VIEWPORT_HEIGHT_PX);
  layOut(Element.prototype, 'clientWidth', isScrollBox, () => VIEWPORT_WIDTH_PX);
  layOut(Element.prototype, 'scrollHeight', isScrollBox, (box) =>
    Math.max(contentHeight(box as HTMLElement), VIEWPORT_HEIGHT_PX),
  );
  layOut(HTMLElement.prototype, 'offsetHeight', isRow, () => ROW_HEIGHT_PX);
  // jsdom has no scrollTo. A browser clamps the position and reports the scroll a moment later.
  Element.prototype.scrollTo = function scrollTo(this: Element, ...args: unknown[]) {
    const [options] = args;
    const top = typeof options === 'object' && options ? (options as ScrollToOptions).top : args[1];
    if (typeof top !== 'number' || !isScrollBox(this)) return;
    this.scrollTop = Math.min(Math.max(top, 0), maxScrollTop(this));
    setTimeout(() => this.dispatchEvent(new Event('scroll')));
  };
};
