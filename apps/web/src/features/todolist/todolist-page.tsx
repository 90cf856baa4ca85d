import { useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useTranslation } from 'react-i18next';
import { formatDate, parseDate } from '../../lib/dates';
import { addTodo, loadTodos, removeTodo, replaceTodo, saveTodos, type Todo } from './todos';

const pad = (value: number) => String(value).padStart(2, '0');

// dd/MM/yyyy (SPEC §9) followed by the local time.
const formatDateTime = (value: string) => {
  const date = parseDate(value);
  if (!date) return '';
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

export const TodoListPage = () => {
  const { t } = useTranslation();
  const [todos, setTodos] = useState<Todo[]>(loadTodos);
  const [text, setText] = useState('');
  const [editingId, setEditingId] = useState<string | null>(null);

  const update = (next: Todo[]) => {
    setTodos(next);
    saveTodos(next);
  };

  const stopEditing = () => {
    setEditingId(null);
    setText('');
  };

  // SPEC §5 To-do: empty text is ignored.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    const isStillListed = editingId !== null && todos.some((todo) => todo.id === editingId);
    update(isStillListed ? replaceTodo(todos, editingId, trimmed) : addTodo(todos, trimmed));
    stopEditing();
  };

  const startEditing = (todo: Todo) => {
    setEditingId(todo.id);
    setText(todo.text);
  };

  const remove = (todo: Todo) => {
    update(removeTodo(todos, todo.id));
    if (todo.id === editingId) stopEditing();
  };

  const isEditing = editingId !== null;

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('todolist.title')}
      </Typography>
      <Stack component="form" noValidate onSubmit={submit} direction="row" spacing={1}>
        <TextField
          size="small"
          fullWidth
          label={t('todolist.newTask')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          autoComplete="off"
        />
        <Button type="submit" variant="contained">
          {isEditing ? t('todolist.save') : t('todolist.add')}
        </Button>
        {isEditing && (
          <Tooltip title={t('todolist.cancelEdit')}>
            <IconButton aria-label={t('todolist.cancelEdit')} onClick={stopEditing}>
              <CloseIcon />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      <Paper variant="outlined">
        {todos.length === 0 ? (
          <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
            {t('todolist.empty')}
          </Box>
        ) : (
          <List aria-label={t('todolist.title')}>
            {todos.map((todo) => (
              <ListItem
                key={todo.id}
                divider
                secondaryAction={
                  <Stack direction="row" spacing={0.5}>
                    <IconButton
                      size="small"
                      aria-label={t('todolist.edit', { text: todo.text })}
                      onClick={() => startEditing(todo)}
                    >
                      <EditOutlinedIcon fontSize="small" />
                    </IconButton>
                    <IconButton
                      size="small"
                      aria-label={t('todolist.delete', { text: todo.text })}
                      onClick={() => remove(todo)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Stack>
                }
                // The task being edited stays marked while its text is in the input.
                sx={{ pr: 12, bgcolor: todo.id === editingId ? 'action.selected' : undefined }}
              >
                <ListItemText
                  primary={todo.text}
                  secondary={
                    <>
                      <span>{t('todolist.created', { date: formatDateTime(todo.createdAt) })}</span>
                      <br />
                      <span>{t('todolist.updated', { date: formatDateTime(todo.updatedAt) })}</span>
                    </>
                  }
                  slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
    </Stack>
  );
};
