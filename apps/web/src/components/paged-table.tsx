import type { ReactNode } from 'react';
import {
  Box,
  Card,
  CircularProgress,
  Divider,
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
  useMediaQuery,
  type SxProps,
  type Theme,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import { useInfiniteScroll } from '../lib/use-infinite-scroll';
import type { PagedList } from '../lib/use-paged-list';

export type TableColumn<R> = {
  header: ReactNode;
  cell: (row: R) => ReactNode;
  // For the header and the body cells alike.
  align?: 'center';
  // Of the header cell, in px.
  width?: number;
  // Of the body cells.
  sx?: SxProps<Theme>;
  // On a phone, where each row is a card: the row's actions, at the card's foot.
  actions?: boolean;
};

// A column a page shows only to some (actions) is left out as false.
export type TableColumns<R> = (TableColumn<R> | false)[];

// A list the API answers whole (queues): nothing to search, nothing more to load.
export type WholeList<R> = { rows: R[]; isPending: boolean; isFetching: boolean };

type Props<R> = {
  // The page heading, also the table's accessible name unless tableLabel says otherwise.
  title: string;
  tableLabel?: string;
  columns: TableColumns<R>;
  emptyText: string;
  // Buttons beside the search box.
  toolbar?: ReactNode;
  // Between the heading and the table: what the whole list is measured against (a plan's quotas).
  notice?: ReactNode;
  scrollTestId?: string;
  // Below this width heading, search and toolbar stack (a toolbar of several buttons needs more room).
  stackBelow?: 'sm' | 'md';
} & (
  | { list: PagedList<R>; searchLabel: string; noMatchesText: string }
  | { list: WholeList<R>; searchLabel?: undefined; noMatchesText?: undefined }
);

// The table's height leaves room for the header above it, taller while stacked.
const scrollHeights = {
  sm: { xs: 'calc(100vh - 230px)', sm: 'calc(100vh - 190px)' },
  md: { xs: 'calc(100vh - 280px)', md: 'calc(100vh - 190px)' },
};

const isPaged = <R,>(list: PagedList<R> | WholeList<R>): list is PagedList<R> =>
  'fetchNextPage' in list;

const noNextPage = () => undefined;

// SPEC §2 list pages: heading, search box (searching once typing settles) and toolbar over a table
// that loads the next page when scrolled near its bottom, with a loading row and an empty state.
export const PagedTable = <R extends { id: number }>({
  title,
  tableLabel = title,
  columns: allColumns,
  emptyText,
  toolbar,
  notice,
  scrollTestId,
  stackBelow = 'sm',
  list,
  searchLabel,
  noMatchesText,
}: Props<R>) => {
  const { t } = useTranslation();
  const columns = allColumns.filter((column) => column !== false);
  const paged = isPaged(list) ? list : undefined;
  const scroll = useInfiniteScroll({
    hasNextPage: paged?.hasNextPage ?? false,
    isFetchingNextPage: paged?.isFetchingNextPage ?? false,
    fetchNextPage: paged?.fetchNextPage ?? noNextPage,
    loadedCount: list.rows.length,
  });
  // Below 600 px a row's columns do not fit side by side: each row is a card, its actions at hand.
  const asCards = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const emptyState =
    !list.isPending && !list.isFetching && list.rows.length === 0
      ? paged?.search
        ? noMatchesText
        : emptyText
      : null;

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', [stackBelow]: 'row' }}
        spacing={2}
        sx={{
          alignItems: { xs: 'stretch', [stackBelow]: 'center' },
        }}
      >
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        {paged && (
          <TextField
            size="small"
            type="search"
            placeholder={searchLabel}
            // Room for the whole hint ("Buscar por nombre o número", also in a wide font such as
            // DejaVu Sans), not the browser's default width.
            sx={{ minWidth: { [stackBelow]: 310 } }}
            value={paged.searchInput}
            onChange={(event) => paged.setSearchInput(event.target.value)}
            slotProps={{
              htmlInput: { 'aria-label': searchLabel },
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
        {toolbar}
      </Stack>
      {notice}

      {asCards ? (
        <Box
          ref={scroll.ref}
          onScroll={scroll.onScroll}
          data-testid={scrollTestId}
          sx={paged ? { maxHeight: scrollHeights[stackBelow], overflowY: 'auto' } : undefined}
        >
          <Stack component="ul" aria-label={tableLabel} spacing={1.5} sx={{ m: 0, p: 0 }}>
            {list.rows.map((row) => (
              <RowCard key={row.id} row={row} columns={columns} />
            ))}
          </Stack>
          {list.isFetching && (
            <Box sx={{ py: 2, textAlign: 'center' }}>
              <CircularProgress size={24} aria-label={t('app.loading')} />
            </Box>
          )}
          {emptyState && (
            <Paper variant="outlined" sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
              {emptyState}
            </Paper>
          )}
        </Box>
      ) : (
        <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
          <TableContainer
            ref={scroll.ref}
            onScroll={scroll.onScroll}
            data-testid={scrollTestId}
            // A paged list scrolls in its box, which is what loads the next page; a whole one grows
            // with the page.
            sx={paged ? { maxHeight: scrollHeights[stackBelow] } : undefined}
          >
            <Table stickyHeader={paged !== undefined} size="small" aria-label={tableLabel}>
              <TableHead>
                <TableRow>
                  {columns.map((column, index) => (
                    <TableCell
                      key={index}
                      align={column.align}
                      sx={column.width === undefined ? undefined : { width: column.width }}
                    >
                      {column.header}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {list.rows.map((row) => (
                  <TableRow key={row.id} hover>
                    {columns.map((column, index) => (
                      <TableCell key={index} align={column.align} sx={column.sx}>
                        {column.cell(row)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
                {list.isFetching && (
                  <TableRow>
                    <TableCell colSpan={columns.length} align="center">
                      <CircularProgress size={24} aria-label={t('app.loading')} />
                    </TableCell>
                  </TableRow>
                )}
                {emptyState && (
                  <TableRow>
                    <TableCell colSpan={columns.length}>
                      <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
                        {emptyState}
                      </Box>
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
        </Paper>
      )}
    </Stack>
  );
};

// One row as a card: each column's header beside its value, the actions at the foot (the list pages
// below 600 px, and other tables of rows on a phone).
export const RowCard = <R,>({
  row,
  columns,
  testId,
}: {
  row: R;
  columns: TableColumn<R>[];
  testId?: { 'data-testid': string };
}) => {
  const fields = columns.filter((column) => !column.actions);
  const actions = columns.filter((column) => column.actions);
  return (
    <Card component="li" variant="outlined" sx={{ listStyle: 'none' }} {...testId}>
      <Stack spacing={0.75} sx={{ p: 1.5 }}>
        {fields.map((column, index) => (
          <Stack key={index} direction="row" spacing={1.5} sx={{ alignItems: 'baseline' }}>
            {column.header !== '' && (
              <Typography
                variant="caption"
                color="text.secondary"
                sx={{ flex: '0 0 38%', overflowWrap: 'anywhere' }}
              >
                {column.header}
              </Typography>
            )}
            <Box sx={{ minWidth: 0, overflowWrap: 'anywhere', typography: 'body2' }}>
              {column.cell(row)}
            </Box>
          </Stack>
        ))}
      </Stack>
      {actions.length > 0 && (
        <>
          <Divider />
          <Stack direction="row" sx={{ justifyContent: 'flex-end', px: 1, py: 0.5 }}>
            {actions.map((column, index) => (
              <Box key={index}>{column.cell(row)}</Box>
            ))}
          </Stack>
        </>
      )}
    </Card>
  );
};

// The last column: a row's icon buttons, centred and kept on one line.
export const actionsColumn = <R,>(
  header: string,
  cell: (row: R) => ReactNode,
  width = 120,
): TableColumn<R> => ({
  header,
  cell,
  align: 'center',
  width,
  sx: { whiteSpace: 'nowrap' },
  actions: true,
});

// One icon button of the actions column; the span keeps the tooltip working while it is disabled.
export const RowAction = ({
  title,
  label,
  icon,
  disabled,
  onClick,
}: {
  title: string;
  label: string;
  icon: ReactNode;
  disabled?: boolean;
  onClick: () => void;
}) => (
  <Tooltip title={title}>
    <span>
      <IconButton size="small" aria-label={label} disabled={disabled} onClick={onClick}>
        {icon}
      </IconButton>
    </span>
  </Tooltip>
);
