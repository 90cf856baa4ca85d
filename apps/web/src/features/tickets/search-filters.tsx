import { Autocomplete, Box, Chip, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useUserOptions } from '../../api/queries/users';
import { useTagOptions } from '../../api/queries/tags';

// SPEC §2 Search tab: a tag multi-select, and for admins a user multi-select.
export const SearchFilters = ({
  tagIds,
  userIds,
  canFilterUsers,
  onChange,
}: {
  tagIds: number[];
  userIds: number[];
  canFilterUsers: boolean;
  onChange: (patch: { searchTags?: number[]; searchUsers?: number[] }) => void;
}) => {
  const { t } = useTranslation();
  const tags = useTagOptions();
  const users = useUserOptions({ enabled: canFilterUsers });
  const tagOptions = tags.data ?? [];
  const userOptions = users.data ?? [];
  return (
    <Stack direction="row" spacing={1} sx={{ px: 1, pb: 1, flexShrink: 0 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Autocomplete
          multiple
          size="small"
          options={tagOptions}
          value={tagOptions.filter((tag) => tagIds.includes(tag.id))}
          onChange={(_event, chosen) => onChange({ searchTags: chosen.map((tag) => tag.id) })}
          getOptionLabel={(tag) => tag.name}
          isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
          loading={tags.isFetching}
          noOptionsText={t('tickets.search.noTags')}
          renderValue={(chosen, getItemProps) =>
            chosen.map((tag, index) => {
              const { key, ...itemProps } = getItemProps({ index });
              return (
                <Chip
                  key={key}
                  {...itemProps}
                  size="small"
                  label={tag.name}
                  sx={{ bgcolor: tag.color, color: 'common.white' }}
                />
              );
            })
          }
          renderInput={(params) => <TextField {...params} label={t('tickets.search.tags')} />}
        />
      </Box>
      {canFilterUsers && (
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Autocomplete
            multiple
            size="small"
            options={userOptions}
            value={userOptions.filter((user) => userIds.includes(user.id))}
            onChange={(_event, chosen) => onChange({ searchUsers: chosen.map((user) => user.id) })}
            getOptionLabel={(user) => user.name}
            isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
            loading={users.isFetching}
            noOptionsText={t('tickets.search.noUsers')}
            renderInput={(params) => <TextField {...params} label={t('tickets.search.users')} />}
          />
        </Box>
      )}
    </Stack>
  );
};
