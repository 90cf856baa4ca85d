import { lazy, Suspense, useState, type CSSProperties } from 'react';
import { Box, CircularProgress, IconButton, Popover, useMediaQuery, useTheme } from '@mui/material';
import EmojiEmotionsOutlinedIcon from '@mui/icons-material/EmojiEmotionsOutlined';
import { useTranslation } from 'react-i18next';
import type { EmojiClickData } from 'emoji-picker-react';
import { THUMB_PX } from '../../lib/thumb';

// The picker and its emoji data are loaded the first time someone opens it.
const EmojiPicker = lazy(() => import('emoji-picker-react'));

const emojiData = {
  es: () => import('emoji-picker-react/data/emojis-es'),
  en: () => import('emoji-picker-react/data/emojis-en'),
  pt: () => import('emoji-picker-react/data/emojis-pt'),
};

// The picker's size where a mouse points: the package's own.
const PICKER_WIDTH = 350;
const PICKER_HEIGHT = 450;
// On a phone: the screen's width less the popover's margins, and emojis a thumb can hit (the
// package draws each in a button 10 px larger than the emoji).
const PHONE_PICKER_WIDTH = `min(${PICKER_WIDTH}px, 100vw - 32px)`;
const phonePickerStyle = { '--epr-emoji-size': `${THUMB_PX - 10}px` } as CSSProperties;

const PickerLoading = ({ isPhone }: { isPhone: boolean }) => (
  <Box
    sx={{
      width: isPhone ? PHONE_PICKER_WIDTH : PICKER_WIDTH,
      height: PICKER_HEIGHT,
      display: 'grid',
      placeItems: 'center',
    }}
  >
    <CircularProgress size={28} />
  </Box>
);

// The emoji picker in a popover over `anchor` (closed while it is null): the composer's, and the
// message menu's "more reactions".
export const EmojiPickerPopover = ({
  anchor,
  label,
  placement = 'above',
  onPick,
  onClose,
  onClosed,
}: {
  anchor: HTMLElement | null;
  // The popover's accessible name.
  label: string;
  placement?: 'above' | 'below';
  onPick: (emoji: string) => void;
  onClose: () => void;
  onClosed?: () => void;
}) => {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  // The picker's names and search words: Brazilian Portuguese searches the package's Portuguese.
  const language = i18n.language === 'en' ? 'en' : i18n.language === 'pt-BR' ? 'pt' : 'es';
  const isAbove = placement === 'above';
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <Popover
      open={Boolean(anchor)}
      anchorEl={anchor}
      onClose={onClose}
      // A caller that puts the focus back itself (onClosed) does not want it on the anchor first.
      disableRestoreFocus={Boolean(onClosed)}
      anchorOrigin={{ vertical: isAbove ? 'top' : 'bottom', horizontal: 'left' }}
      transformOrigin={{ vertical: isAbove ? 'bottom' : 'top', horizontal: 'left' }}
      slotProps={{
        paper: { 'aria-label': label },
        // Once the picker is gone; before that its focus trap would take the focus back.
        transition: onClosed ? { onExited: onClosed } : undefined,
      }}
    >
      <Suspense fallback={<PickerLoading isPhone={isPhone} />}>
        <EmojiPicker
          onEmojiClick={(data: EmojiClickData) => onPick(data.emoji)}
          emojiData={emojiData[language]}
          theme={theme.palette.mode === 'dark' ? 'dark' : 'light'}
          previewConfig={{ showPreview: false }}
          labels={{
            searchPlaceholder: t('tickets.composer.emojiSearch'),
            searchLabel: t('tickets.composer.emojiSearch'),
          }}
          lazyLoadEmojis
          {...(isPhone && { width: PHONE_PICKER_WIDTH, style: phonePickerStyle })}
        />
      </Suspense>
    </Popover>
  );
};

// The composer's emoji button: the picker stays open so several emojis can be added in a row.
export const EmojiButton = ({
  disabled,
  onPick,
  onClosed,
}: {
  disabled?: boolean;
  onPick: (emoji: string) => void;
  // Where the focus goes back to: the input, to keep writing.
  onClosed: () => void;
}) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  return (
    <>
      <IconButton
        aria-label={t('tickets.composer.emoji')}
        aria-haspopup="dialog"
        disabled={disabled}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <EmojiEmotionsOutlinedIcon />
      </IconButton>
      <EmojiPickerPopover
        anchor={anchor}
        label={t('tickets.composer.emojiPicker')}
        onPick={onPick}
        onClose={() => setAnchor(null)}
        onClosed={onClosed}
      />
    </>
  );
};
