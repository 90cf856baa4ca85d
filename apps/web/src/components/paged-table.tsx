import type { ReactNode } from 'react';
import {
  Box,
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
              {!list.isPending && !list.isFetching && list.rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={columns.length}>
                    <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
                      {paged?.search ? noMatchesText : emptyText}
                    </Box>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
    </Stack>
  );
};

// The last column: a row's icon buttons, centred and kept on one line.
export const actionsColumn = <R,>(
  header: string,
  cell: (row: R) => ReactNode,
  width = 120,
): TableColumn<R> => ({ header, cell, align: 'center', width, sx: { whiteSpace: 'nowrap' } });

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
