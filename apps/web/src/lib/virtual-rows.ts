import { useCallback, useRef, type FocusEvent } from 'react';
import { defaultRangeExtractor, type Range } from '@tanstack/react-virtual';

// A virtualised list renders only the rows in view (and a few either side); its rows carry their
// index in this attribute (what the virtualizer measures them by).
const ROW_INDEX_ATTRIBUTE = 'data-index';

const rowIndexOf = (target: EventTarget) => {
  const row = target instanceof Element ? target.closest(`[${ROW_INDEX_ATTRIBUTE}]`) : null;
  return row ? Number(row.getAttribute(ROW_INDEX_ATTRIBUTE)) : null;
};

// Keeps the row that holds the keyboard focus rendered while it is scrolled out of view: dropping
// it would drop the focus to the page, and the next Tab would start again from the top.
// rangeExtractor goes to the virtualizer, the handlers to the element around the rows.
export const useFocusedRowKept = () => {
  const focusedIndex = useRef<number | null>(null);
  const rangeExtractor = useCallback((range: Range) => {
    const indexes = defaultRangeExtractor(range);
    const focused = focusedIndex.current;
    if (focused === null || focused >= range.count || indexes.includes(focused)) return indexes;
    return [...indexes, focused].sort((a, b) => a - b);
  }, []);
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    focusedIndex.current = rowIndexOf(event.target);
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    if (!(next instanceof Node) || !event.currentTarget.contains(next)) focusedIndex.current = null;
  };
  return { rangeExtractor, focusHandlers: { onFocus, onBlur } };
};

// Where a row of a virtualised list goes: out of the flow, at its offset in the list.
export const rowPosition = (start: number) =>
  ({
    position: 'absolute',
    top: 0,
    left: 0,
    width: '100%',
    transform: `translateY(${start}px)`,
  }) as const;
