/** Pieces the plant (/sites) and pool (/machines) screens both show. */
import { Alert, Badge, Box, Button, Flex, Heading, HStack, Link, Skeleton, Text } from '@chakra-ui/react';
import { Pencil, Plus } from 'lucide-react';
import { memo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { brandAndModel } from '../../../shared/domain/equipment';
import type { MachineListOrigin } from '../../lib/machine-navigation';
import { truncateTitle, type EquipmentCard } from './structure-view';

/** A create button of a list screen's header. */
export interface ListCreateAction {
  label: string;
  to: string;
  state?: object;
  testId: string;
}

/**
 * The list screen's title, and its create button where the user may create one (`create` unset otherwise); `more`
 * are further create buttons, shown before it in the outline style.
 */
export function ListHeader({ title, create, more = [] }: { title: string; create?: ListCreateAction | undefined; more?: readonly ListCreateAction[] }) {
  return (
    <Flex justify="space-between" align="center" gap="4" wrap="wrap">
      <Heading as="h2" size="xl">
        {title}
      </Heading>
      {(create || more.length > 0) && (
        <Flex gap="3" wrap="wrap">
          {more.map((action) => (
            <Button key={action.testId} asChild variant="outline" colorPalette="brand">
              <RouterLink to={action.to} state={action.state} data-testid={action.testId}>
                <Plus aria-hidden />
                {action.label}
              </RouterLink>
            </Button>
          ))}
          {create && (
            <Button asChild colorPalette="brand">
              <RouterLink to={create.to} state={create.state} data-testid={create.testId}>
                <Plus aria-hidden />
                {create.label}
              </RouterLink>
            </Button>
          )}
        </Flex>
      )}
    </Flex>
  );
}

/** Skeleton while the mirror loads, a notice until the first sync is done, then `emptyText` when there is nothing. */
export function MirrorListState({ data, empty, emptyText }: { data: { synced: boolean } | undefined; empty: boolean; emptyText: string }) {
  const { t } = useTranslation();
  return (
    <>
      {!data && <Skeleton h="64" borderRadius="l3" />}
      {data && !data.synced && (
        <Alert.Root status="info" variant="subtle">
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">{t('sites.notSynced')}</Alert.Title>
        </Alert.Root>
      )}
      {data && data.synced && empty && <Text color="fg.muted">{emptyText}</Text>}
    </>
  );
}

export interface CountAndEditProps {
  equipmentCount: number;
  /** The edit link, shown only when set (the caller may update). */
  edit?: { label: string; to: string; state: object } | undefined;
  /** Test id prefix the e2e page models use: `<prefix>-equipment-count`, `<prefix>-edit`. */
  testId: string;
}

/** A pool's or area's machine count badge and its edit link. */
export function CountAndEdit({ equipmentCount, edit, testId }: CountAndEditProps) {
  const { t } = useTranslation();
  return (
    <HStack gap="2" flexShrink={0}>
      <Badge size="lg" variant="subtle" data-testid={`${testId}-equipment-count`}>
        {t('sites.equipmentCount', { count: equipmentCount })}
      </Badge>
      {edit && (
        <Button asChild variant="ghost" aria-label={edit.label}>
          <RouterLink to={edit.to} state={edit.state} data-testid={`${testId}-edit`}>
            <Pencil aria-hidden />
          </RouterLink>
        </Button>
      )}
    </HStack>
  );
}

/** One machine of a list, the whole line a link to its screen, whose breadcrumb then leads back to the list (`origin`). */
export const MachineLine = memo(function MachineLine({ machine, origin }: { machine: EquipmentCard; origin: MachineListOrigin }) {
  // why a link: the machines of a deleted area are listed only on /machines, and a new machine of an area is shown on
  // its plant's page after saving; without it an admin had to search for each.
  // The whole line is the link, at least 44 px high for a finger.
  return (
    <Box as="li" borderBottomWidth="1px" borderColor="border.muted" data-testid="machine-line">
      <Link asChild display="block" py="2" minH="11" minW="0" color="inherit" _hover={{ bg: 'bg.muted', textDecoration: 'none' }}>
        <RouterLink to={`/machine-overview?nodeid=${encodeURIComponent(machine.nodeid)}`} state={origin} data-testid="machine-line-link">
          <Text fontWeight="medium" color="brand.fg" truncate title={machine.name}>
            {truncateTitle(machine.name)}
          </Text>
          <Text textStyle="sm" color="fg.muted" truncate>
            {[machine.equipmentid, brandAndModel(machine.brand, machine.model)].filter(Boolean).join(' · ') || '—'}
          </Text>
        </RouterLink>
      </Link>
    </Box>
  );
});
