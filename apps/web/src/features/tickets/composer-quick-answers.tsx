import { useState, type KeyboardEvent } from 'react';
import { List, ListItemButton, ListItemText, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { quickMessagePreview, type QuickMessageView } from '@atendi/shared';
import { useQuickMessages } from './composer-api';

export const QUICK_ANSWERS_LIST_ID = 'composer-quick-answers';
const optionId = (id: number) => `${QUICK_ANSWERS_LIST_ID}-${id}`;

// SPEC §5: quick answers trigger when the input starts with '/' and is longer than 1 character.
// Opened with the composer's button (no "/" to type on a phone's keyboard), they list every answer,
// or those matching a "/" search.
const searchOf = (text: string, isBrowsing: boolean) => {
  if (text.startsWith('/') && text.length > 1) return text.slice(1).toLowerCase();
  return isBrowsing ? '' : null;
};

export const useQuickAnswers = (text: string, onChoose: (answer: QuickMessageView) => void) => {
  const [isBrowsing, setIsBrowsing] = useState(false);
  const search = searchOf(text, isBrowsing);
  const { data, isError } = useQuickMessages(text.startsWith('/') || isBrowsing);
  const [highlighted, setHighlighted] = useState(0);
  // Escape hides the list until the text changes.
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const [lastText, setLastText] = useState(text);
  if (text !== lastText) {
    setLastText(text);
    setHighlighted(0);
    // Writing on ends the button's list ("/" still searches).
    setIsBrowsing(false);
  }

  const items =
    search === null
      ? []
      : (data ?? []).filter((answer) => answer.shortcode.toLowerCase().includes(search));
  // The button's list says so when there is nothing to list.
  const isOpen =
    search !== null &&
    dismissedFor !== text &&
    (items.length > 0 || isError || (isBrowsing && data !== undefined));
  const current = items[Math.min(highlighted, items.length - 1)];

  const choose = (answer: QuickMessageView) => {
    setDismissedFor(null);
    setIsBrowsing(false);
    onChoose(answer);
  };

  // The button: opens the list of every answer, or closes the list.
  const toggle = () => {
    setIsBrowsing(!isOpen);
    setDismissedFor(isOpen ? text : null);
  };

  // Arrow keys move, Enter or Tab chooses, Escape closes; answers true when it used the key.
  const onKeyDown = (event: KeyboardEvent) => {
    if (!isOpen) return false;
    if (event.key === 'Escape') {
      setDismissedFor(text);
      setIsBrowsing(false);
      return true;
    }
    if (!items.length) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setHighlighted(
        (index) => (Math.min(index, items.length - 1) + step + items.length) % items.length,
      );
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      if (current) choose(current);
      return true;
    }
    return false;
  };

  return {
    isOpen,
    isError,
    items,
    activeId: isOpen && current ? optionId(current.id) : undefined,
    currentId: current?.id,
    choose,
    toggle,
    onKeyDown,
  };
};

// The list above the input: shortcode and the start of the answer's text.
export const QuickAnswersList = ({
  quickAnswers,
}: {
  quickAnswers: ReturnType<typeof useQuickAnswers>;
}) => {
  const { t } = useTranslation();
  const { isOpen, isError, items, currentId, choose } = quickAnswers;
  if (!isOpen) return null;
  return (
    <Paper
      elevation={4}
      sx={{
        position: 'absolute',
        left: 8,
        right: 8,
        bottom: '100%',
        mb: 0.5,
        maxHeight: 280,
        overflowY: 'auto',
        zIndex: 2,
      }}
    >
      {isError && !items.length ? (
        <Typography variant="body2" color="error" sx={{ p: 1.5 }}>
          {t('tickets.composer.quickAnswersFailed')}
        </Typography>
      ) : !items.length ? (
        <Typography variant="body2" sx={{ p: 1.5, color: 'text.secondary' }}>
          {t('tickets.composer.quickAnswersEmpty')}
        </Typography>
      ) : (
        <List
          id={QUICK_ANSWERS_LIST_ID}
          role="listbox"
          aria-label={t('tickets.composer.quickAnswers')}
          dense
          disablePadding
        >
          {items.map((answer) => (
            <ListItemButton
              key={answer.id}
              id={optionId(answer.id)}
              role="option"
              aria-selected={answer.id === currentId}
              selected={answer.id === currentId}
              // Keeps the focus (and the caret) in the input.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(answer)}
            >
              <ListItemText
                primary={`/${answer.shortcode}`}
                secondary={quickMessagePreview(answer.message)}
                slotProps={{ primary: { sx: { fontWeight: 600 } } }}
              />
            </ListItemButton>
          ))}
        </List>
      )}
    </Paper>
  );
};
