import { useState, type ReactNode, type Ref, type UIEvent } from 'react';
import {
  Box,
  Button,
  CircularProgress,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
  type SxProps,
  type Theme,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadingBox } from '../../../components/loading-box';
import { toastOperationError } from './admin-errors';

// The settings tables (the super user's companies, plans and helps; the company's API tokens): one
// toolbar (search, add), one table with a row's actions as labelled icon buttons, the loading and
// empty states, and deleting with a confirmation. Each tab says only what its rows show and what its
// actions do.

export const AdminToolbar = ({
  addLabel,
  onAdd,
  search,
}: {
  addLabel: string;
  onAdd: () => void;
  search?: { value: string; onChange: (value: string) => void };
}) => {
  const { t } = useTranslation();
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{
        alignItems: { sm: 'center' },
        justifyContent: search ? 'space-between' : 'flex-end',
      }}
    >
      {search && (
        <TextField
          value={search.value}
          onChange={(event) => search.onChange(event.target.value)}
          placeholder={t('settings.search')}
          size="small"
          sx={{ flex: 1, maxWidth: { sm: 360 } }}
          slotProps={{
            htmlInput: { 'aria-label': t('settings.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
      <Button variant="contained" startIcon={<AddIcon />} onClick={onAdd}>
        {addLabel}
      </Button>
    </Stack>
  );
};

type AdminColumn<T> = {
  label: string;
  align?: 'center' | 'right';
  sx?: SxProps<Theme>;
  cell: (row: T) => ReactNode;
};

// An icon button on each row, named "<label> <row's name>" for screen readers and tests.
type RowAction<T> = {
  label: string;
  icon: ReactNode;
  onClick: (row: T) => void;
  disabled?: (row: T) => boolean;
  // The tooltip, when it is not the label (why the action is disabled).
  tooltip?: (row: T) => string;
};

export const AdminTable = <T extends { id: number }>({
  label,
  columns,
  rows,
  nameOf,
  actions,
  isPending,
  isEmpty,
  emptyText,
  isFetchingMore = false,
  rowProps,
  scroll,
}: {
  // The table's accessible name.
  label: string;
  columns: AdminColumn<T>[];
  rows: T[];
  nameOf: (row: T) => string;
  actions: RowAction<T>[];
  isPending: boolean;
  isEmpty: boolean;
  emptyText: string;
  isFetchingMore?: boolean;
  rowProps?: (row: T) => { sx?: SxProps<Theme>; 'data-status'?: string };
  // A list that loads more as it scrolls (lib/use-infinite-scroll.ts).
  scroll?: {
    ref: Ref<HTMLDivElement>;
    onScroll: (event: UIEvent<HTMLElement>) => void;
    testId: string;
  };
}) => {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined">
      <TableContainer
        {...(scroll
          ? {
              sx: { maxHeight: 'calc(100vh - 300px)', minHeight: 240 },
              ref: scroll.ref,
              onScroll: scroll.onScroll,
              'data-testid': scroll.testId,
            }
          : {})}
      >
        <Table stickyHeader={Boolean(scroll)} size="small" aria-label={label}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.label} align={column.align}>
                  {column.label}
                </TableCell>
              ))}
              <TableCell align="right">{t('settings.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id} {...rowProps?.(row)}>
                {columns.map((column) => (
                  <TableCell key={column.label} align={column.align} sx={column.sx}>
                    {column.cell(row)}
                  </TableCell>
                ))}
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {actions.map((action) => (
                    <Tooltip key={action.label} title={action.tooltip?.(row) ?? action.label}>
                      {/* A span keeps the tooltip working while the button is disabled. */}
                      <span>
                        <IconButton
                          size="small"
                          aria-label={`${action.label} ${nameOf(row)}`}
                          disabled={action.disabled?.(row) ?? false}
                          onClick={() => action.onClick(row)}
                        >
                          {action.icon}
                        </IconButton>
                      </span>
                    </Tooltip>
                  ))}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {isPending && <LoadingBox />}
        {isFetchingMore && (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 2 }}>
            <CircularProgress size={24} />
          </Box>
        )}
        {isEmpty && (
          <Typography sx={{ color: 'text.secondary', p: 3, textAlign: 'center' }}>
            {emptyText}
          </Typography>
        )}
      </TableContainer>
    </Paper>
  );
};

// Asks before deleting a row, deletes it with the tab's mutation, and says so (or why not).
export const useAdminDelete = <T,>({
  remove,
  deletedText,
  title,
  message,
}: {
  remove: {
    mutate: (
      row: T,
      options: { onSuccess: () => void; onError: (error: unknown) => void; onSettled: () => void },
    ) => void;
    isPending: boolean;
  };
  deletedText: string;
  title: (row: T | null) => string;
  message: string;
}) => {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState<T | null>(null);
  const confirm = () => {
    if (deleting === null) return;
    remove.mutate(deleting, {
      onSuccess: () => toast.success(deletedText),
      onError: toastOperationError,
      onSettled: () => setDeleting(null),
    });
  };
  const dialog = (
    <ConfirmDialog
      open={deleting !== null}
      title={title(deleting)}
      message={message}
      confirmLabel={t('settings.delete')}
      isDestructive
      isBusy={remove.isPending}
      onConfirm={confirm}
      onClose={() => setDeleting(null)}
    />
  );
  return { ask: setDeleting, dialog };
};
