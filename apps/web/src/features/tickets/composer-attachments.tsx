import { useEffect, useState } from 'react';
import { Box, Button, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import { useTranslation } from 'react-i18next';

const formatFileSize = (bytes: number) => {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
};

// The image's object URL lives as long as its preview: removing or clearing revokes it.
const Thumbnail = ({ file }: { file: File }) => {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url ? (
    <Box
      component="img"
      src={url}
      alt={file.name}
      sx={{ width: 56, height: 56, objectFit: 'cover', borderRadius: 1 }}
    />
  ) : (
    <Box sx={{ width: 56, height: 56 }} />
  );
};

// The files chosen for the next send, each removable, with a button to drop them all.
export const AttachmentsPreview = ({
  files,
  disabled,
  onRemove,
  onClear,
}: {
  files: File[];
  disabled: boolean;
  onRemove: (file: File) => void;
  onClear: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <Box
      role="region"
      aria-label={t('tickets.composer.attachments')}
      sx={{ px: 1.5, pt: 1, display: 'flex', alignItems: 'flex-start', gap: 1 }}
    >
      <Stack
        component="ul"
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap', flex: 1, listStyle: 'none', m: 0, p: 0 }}
      >
        {files.map((file, index) => (
          <Stack
            component="li"
            key={`${file.name}-${file.size}-${file.lastModified}-${index}`}
            direction="row"
            spacing={1}
            sx={{
              alignItems: 'center',
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              p: 0.5,
              maxWidth: 260,
            }}
          >
            {file.type.startsWith('image/') ? (
              <Thumbnail file={file} />
            ) : (
              <InsertDriveFileOutlinedIcon color="action" sx={{ fontSize: 40 }} />
            )}
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" noWrap title={file.name}>
                {file.name}
              </Typography>
              <Typography
                variant="caption"
                sx={{
                  color: 'text.secondary',
                }}
              >
                {formatFileSize(file.size)}
              </Typography>
            </Box>
            <Tooltip title={t('tickets.composer.removeFile', { name: file.name })}>
              <span>
                <IconButton
                  size="small"
                  disabled={disabled}
                  aria-label={t('tickets.composer.removeFile', { name: file.name })}
                  onClick={() => onRemove(file)}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          </Stack>
        ))}
      </Stack>
      <Button size="small" disabled={disabled} onClick={onClear}>
        {t('tickets.composer.clearFiles')}
      </Button>
    </Box>
  );
};
