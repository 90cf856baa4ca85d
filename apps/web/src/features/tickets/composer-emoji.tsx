import { lazy, Suspense, useState } from 'react';
import { Box, CircularProgress, IconButton, Popover, useTheme } from '@mui/material';
import EmojiEmotionsOutlinedIcon from '@mui/icons-material/EmojiEmotionsOutlined';
import { useTranslation } from 'react-i18next';
import type { EmojiClickData } from 'emoji-picker-react';

// The picker and its emoji data are loaded the first time someone opens it.
const EmojiPicker = lazy(() => import('emoji-picker-react'));

const emojiData = {
  es: () => import('emoji-picker-react/data/emojis-es'),
  en: () => import('emoji-picker-react/data/emojis-en'),
};

const PickerLoading = () => (
  <Box sx={{ width: 350, height: 450, display: 'grid', placeItems: 'center' }}>
    <CircularProgress size={28} />
  </Box>
);

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
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const language = i18n.language === 'en' ? 'en' : 'es';

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
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        disableRestoreFocus
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{
          paper: { 'aria-label': t('tickets.composer.emojiPicker') },
          // Once the picker is gone; before that its focus trap would take the focus back.
          transition: { onExited: onClosed },
        }}
      >
        <Suspense fallback={<PickerLoading />}>
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
          />
        </Suspense>
      </Popover>
    </>
  );
};
