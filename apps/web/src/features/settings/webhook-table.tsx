import {
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { RowCard, type TableColumn } from '../../components/paged-table';

// The webhooks tab's tables (endpoints, deliveries) and the exports tab's: a table, or below 600 px
// one card per row (components/paged-table.tsx RowCard) with its actions at the card's foot.
// Loading, empty and failed states are the caller's.
export const WebhookTable = <R extends { id: number }>({
  label,
  columns,
  rows,
  onRowClick,
}: {
  // The table's (or the cards' list's) accessible name.
  label: string;
  columns: TableColumn<R>[];
  rows: R[];
  // A click anywhere on a row but its actions (the table only: a card has its own button).
  onRowClick?: (row: R) => void;
}) => {
  const asCards = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  if (asCards)
    return (
      <Stack component="ul" aria-label={label} spacing={1.5} sx={{ m: 0, p: 0 }}>
        {rows.map((row) => (
          <RowCard key={row.id} row={row} columns={columns} />
        ))}
      </Stack>
    );
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={label}>
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
          {rows.map((row) => (
            <TableRow
              key={row.id}
              hover
              onClick={onRowClick && (() => onRowClick(row))}
              sx={onRowClick ? { cursor: 'pointer' } : undefined}
            >
              {columns.map((column, index) => (
                <TableCell
                  key={index}
                  align={column.align}
                  sx={column.sx}
                  // The actions do their own thing, not the row's.
                  onClick={column.actions ? (event) => event.stopPropagation() : undefined}
                >
                  {column.cell(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
