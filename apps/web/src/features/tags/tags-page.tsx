import { useState } from 'react';
import { Button, Chip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { can, type TagView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { useDeleteConfirm } from '../../components/delete-confirm';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { cssColor } from '../../lib/colors';
import { usePagedList } from '../../lib/use-paged-list';
import { TagModal } from './tag-modal';
import { applyTagEventToCache, deleteTag, tagsList, useTagLiveUpdates } from './tags.api';

type ModalState = { open: boolean; tag: TagView | null; sessionKey: number };

export const TagChip = ({ tag }: { tag: Pick<TagView, 'name' | 'color'> }) => {
  const color = cssColor(tag.color);
  return (
    <Chip
      size="small"
      label={tag.name}
      sx={{ bgcolor: color, color: (theme) => theme.palette.getContrastText(color) }}
    />
  );
};

// SPEC §2 Tags: searchable infinite-scroll table of name chip, ticket count, actions. Every profile
// reads it; only those allowed to manage tags see the add, edit and delete buttons.
export const TagsPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const canManage = can(me, 'tags:manage');
  const list = usePagedList(tagsList);
  const [modal, setModal] = useState<ModalState>({ open: false, tag: null, sessionKey: 0 });

  useTagLiveUpdates();

  const openModal = (tag: TagView | null) =>
    setModal((current) => ({ open: true, tag, sessionKey: current.sessionKey + 1 }));

  const confirmDelete = useDeleteConfirm({
    remove: (tag: TagView) => deleteTag(tag.id),
    onDeleted: (tag) => applyTagEventToCache(queryClient, { action: 'delete', tagId: tag.id }),
    deletedText: t('tags.deleted'),
    title: (tag) => t('tags.deleteTitle', { name: tag.name }),
    message: (tag) => t('tags.deleteText', { count: tag.ticketsCount }),
    confirmLabel: t('tags.delete'),
  });

  const columns: TableColumns<TagView> = [
    { header: t('tags.columns.name'), cell: (tag) => <TagChip tag={tag} /> },
    { header: t('tags.columns.tickets'), cell: (tag) => tag.ticketsCount, align: 'center' },
    {
      header: t('tags.columns.kanban'),
      cell: (tag) => (tag.kanban === 1 ? t('tags.yes') : t('tags.no')),
      align: 'center',
    },
    canManage &&
      actionsColumn(t('tags.columns.actions'), (tag) => (
        <>
          <RowAction
            title={t('tags.edit')}
            label={t('tags.editTag', { name: tag.name })}
            icon={<EditOutlinedIcon fontSize="small" />}
            onClick={() => openModal(tag)}
          />
          <RowAction
            title={t('tags.delete')}
            label={t('tags.deleteTag', { name: tag.name })}
            icon={<DeleteOutlineIcon fontSize="small" />}
            onClick={() => confirmDelete.ask(tag)}
          />
        </>
      )),
  ];

  return (
    <>
      <PagedTable
        title={t('tags.title')}
        searchLabel={t('tags.search')}
        toolbar={
          canManage && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openModal(null)}>
              {t('tags.add')}
            </Button>
          )
        }
        list={list}
        columns={columns}
        emptyText={t('tags.empty')}
        noMatchesText={t('tags.noMatches')}
        scrollTestId="tags-scroll"
      />
      {canManage && (
        <TagModal
          open={modal.open}
          tag={modal.tag}
          sessionKey={modal.sessionKey}
          onClose={() => setModal((current) => ({ ...current, open: false }))}
        />
      )}
      {confirmDelete.dialog}
    </>
  );
};
