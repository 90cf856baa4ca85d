import { useRef, type ChangeEvent, type ReactNode } from 'react';
import { Box, Button, FormHelperText, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';

// ".pdf" of "Report.PDF"; "" without one.
export const fileExtension = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
};

// One file of a form: "choose file" until there is one, then its name and a button that removes it.
// The form keeps the file and sends it; this field only says what was chosen.
export const AttachmentField = ({
  label,
  chooseLabel,
  removeLabel,
  accept,
  fileName,
  error,
  hint,
  icon,
  disabled = false,
  testIdPrefix,
  onChosen,
  onRemove,
}: {
  label: string;
  chooseLabel: string;
  removeLabel: string;
  accept: string;
  // The chosen or saved file's name; none shows the "choose file" button.
  fileName: string | null | undefined;
  // Already translated; shown in place of the hint.
  error?: string | null;
  hint?: string;
  icon?: (color: 'error' | 'action') => ReactNode;
  disabled?: boolean;
  testIdPrefix: string;
  onChosen: (file: File) => void;
  onRemove: () => void;
}) => {
  const input = useRef<HTMLInputElement>(null);
  const color = error ? 'error' : 'action';

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    // Let the same file be chosen again after removing it.
    event.target.value = '';
    if (chosen) onChosen(chosen);
  };

  return (
    <Box>
      <Typography variant="subtitle2" gutterBottom>
        {label}
      </Typography>
      <input
        ref={input}
        type="file"
        hidden
        accept={accept}
        data-testid={`${testIdPrefix}-file-input`}
        aria-label={chooseLabel}
        onChange={onChange}
      />
      {fileName ? (
        <Stack
          direction="row"
          spacing={1}
          sx={{
            alignItems: 'center',
            border: 1,
            borderColor: error ? 'error.main' : 'divider',
            borderRadius: 1,
            px: 1.5,
            py: 0.5,
          }}
        >
          {icon ? icon(color) : <InsertDriveFileOutlinedIcon fontSize="small" color={color} />}
          <Typography
            variant="body2"
            noWrap
            title={fileName}
            sx={{ flexGrow: 1, minWidth: 0 }}
            data-testid={`${testIdPrefix}-attachment-name`}
          >
            {fileName}
          </Typography>
          <Tooltip title={removeLabel}>
            <IconButton
              size="small"
              aria-label={removeLabel}
              disabled={disabled}
              onClick={onRemove}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Stack>
      ) : (
        <Button
          variant="outlined"
          startIcon={<AttachFileIcon />}
          disabled={disabled}
          onClick={() => input.current?.click()}
        >
          {chooseLabel}
        </Button>
      )}
      {(error || hint) && <FormHelperText error={Boolean(error)}>{error ?? hint}</FormHelperText>}
    </Box>
  );
};
