import { useState } from 'react';
import {
  Badge,
  Box,
  Collapse,
  Divider,
  Drawer,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Toolbar,
  Tooltip,
  Typography,
} from '@mui/material';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { APP_VERSION } from '@atendi/shared';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useConnectionsBadge } from '../../features/connections/use-connections-badge';
import type { MenuGroup, MenuLink, MenuSection } from './menu-items';
import { useServerVersion } from './use-shell-data';
import { visuallyHidden } from '../../lib/visually-hidden';

const DRAWER_WIDTH = 260;
const MINI_DRAWER_WIDTH = 72;

const isActive = (pathname: string, to: string) =>
  to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);

type ItemProps = { open: boolean; onNavigate: () => void; nested?: boolean };

const DrawerLink = ({
  entry,
  open,
  onNavigate,
  nested,
  badge,
}: ItemProps & {
  entry: MenuLink;
  // Why the item shows a red '!'; nothing when it needs no attention.
  badge?: string | null;
}) => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const Icon = entry.icon;
  const label = t(entry.labelKey);
  return (
    <Tooltip title={open ? '' : label} placement="right">
      <ListItemButton
        component={RouterLink}
        to={entry.to}
        selected={isActive(pathname, entry.to)}
        onClick={onNavigate}
        sx={{ mx: 1, mb: 0.25, pl: nested && open ? 3 : 2, minHeight: 40 }}
      >
        <ListItemIcon sx={{ minWidth: 40 }}>
          <Badge
            badgeContent={badge ? '!' : null}
            color="error"
            slotProps={{ badge: { title: badge ?? undefined, 'aria-hidden': true } }}
          >
            <Icon fontSize="small" />
          </Badge>
        </ListItemIcon>
        <ListItemText
          primary={label}
          // A long label ("Configuración de campañas" in a group) ends in "…" and says itself whole
          // on hover, in the same type as every other item.
          slotProps={{ primary: { noWrap: true, title: label, variant: 'body1' } }}
          sx={{ opacity: open ? 1 : 0, transition: 'opacity 150ms', minWidth: 0 }}
        />
        {badge && (
          <Box component="span" sx={visuallyHidden}>
            {badge}
          </Box>
        )}
      </ListItemButton>
    </Tooltip>
  );
};

const DrawerGroup = ({ entry, open, onNavigate }: ItemProps & { entry: MenuGroup }) => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const hasActiveChild = entry.children.some((child) => isActive(pathname, child.to));
  const [expanded, setExpanded] = useState(hasActiveChild);
  const Icon = entry.icon;
  const label = t(entry.labelKey);
  return (
    <>
      <Tooltip title={open ? '' : label} placement="right">
        <ListItemButton
          onClick={() => setExpanded((value) => !value)}
          aria-expanded={expanded}
          sx={{ mx: 1, mb: 0.25, minHeight: 40 }}
        >
          <ListItemIcon sx={{ minWidth: 40 }}>
            <Icon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={label} sx={{ opacity: open ? 1 : 0, whiteSpace: 'nowrap' }} />
          {open && (expanded ? <ExpandLessIcon /> : <ExpandMoreIcon />)}
        </ListItemButton>
      </Tooltip>
      <Collapse in={expanded} timeout="auto" unmountOnExit>
        <List disablePadding>
          {entry.children.map((child) => (
            <DrawerLink key={child.id} entry={child} open={open} onNavigate={onNavigate} nested />
          ))}
        </List>
      </Collapse>
    </>
  );
};

const DrawerFooter = ({ open }: { open: boolean }) => {
  const { t } = useTranslation();
  const serverVersion = useServerVersion();
  return (
    <Box sx={{ px: 2, py: 1.5, textAlign: open ? 'left' : 'center' }}>
      <Typography
        variant="caption"
        component="p"
        noWrap
        sx={{
          color: 'text.secondary',
        }}
      >
        {t('app.version', { version: APP_VERSION })}
      </Typography>
      {open && serverVersion && (
        <Typography
          variant="caption"
          component="p"
          noWrap
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('app.serverVersion', { version: serverVersion })}
        </Typography>
      )}
    </Box>
  );
};

export const AppDrawer = ({
  sections,
  open,
  isTemporary,
  onClose,
}: {
  sections: MenuSection[];
  open: boolean;
  isTemporary: boolean;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const hasConnections = sections.some((section) =>
    section.entries.some((entry) => entry.id === 'connections'),
  );
  const badges: Partial<Record<string, string | null>> = {
    connections: useConnectionsBadge(hasConnections),
  };
  // A temporary drawer always shows labels; a permanent one collapses to icons.
  const expanded = isTemporary || open;
  const width = expanded ? DRAWER_WIDTH : MINI_DRAWER_WIDTH;
  const onNavigate = () => {
    if (isTemporary) onClose();
  };

  return (
    <Drawer
      data-testid="drawer"
      variant={isTemporary ? 'temporary' : 'permanent'}
      open={isTemporary ? open : true}
      onClose={onClose}
      ModalProps={{ keepMounted: true }}
      sx={{
        width: isTemporary ? undefined : width,
        flexShrink: 0,
        whiteSpace: 'nowrap',
        '& .MuiDrawer-paper': {
          width,
          boxSizing: 'border-box',
          overflowX: 'hidden',
          transition: (theme) =>
            theme.transitions.create('width', { duration: theme.transitions.duration.shorter }),
        },
      }}
    >
      <Toolbar />
      <Box
        component="nav"
        aria-label={t('menu.navigation')}
        sx={{ flex: 1, overflowY: 'auto', py: 1 }}
      >
        {sections.map((section, index) => (
          <List
            key={section.id}
            dense
            disablePadding
            subheader={
              section.headingKey && expanded ? (
                <ListSubheader sx={{ bgcolor: 'transparent', lineHeight: '36px', mt: 1 }}>
                  {t(section.headingKey)}
                </ListSubheader>
              ) : undefined
            }
          >
            {index > 0 && !expanded && <Divider sx={{ my: 1 }} />}
            {section.entries.map((entry) =>
              entry.kind === 'group' ? (
                <DrawerGroup key={entry.id} entry={entry} open={expanded} onNavigate={onNavigate} />
              ) : (
                <DrawerLink
                  key={entry.id}
                  entry={entry}
                  open={expanded}
                  onNavigate={onNavigate}
                  badge={badges[entry.id]}
                />
              ),
            )}
          </List>
        ))}
      </Box>
      <Divider />
      <DrawerFooter open={expanded} />
    </Drawer>
  );
};
