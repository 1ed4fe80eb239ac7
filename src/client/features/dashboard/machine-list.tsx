/**
 * The machines the user follows on the dashboard (spec part 2 §1: only equipment selected on the profile),
 * grouped by plant → area and by pool, with a search box (name, Equipment ID) that also finds the organisation's
 * other machines, and the button that edits the selection. Each machine links to its screen; the link's name is
 * the machine's name. Reads the local mirror once synced, so it works offline. Plain rows and a deferred search
 * keep it quick for a few hundred machines.
 */
import { Button, Card, Heading, HStack, Input, InputGroup, Stack, Text } from '@chakra-ui/react';
import { Boxes, ChevronRight, Factory, Search, SlidersHorizontal } from 'lucide-react';
import { memo, useDeferredValue, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import type { EquipmentSummary, StructureTree } from '../../../shared/api/structure';
import { brandAndModel } from '../../../shared/domain/equipment';
import { useRowsInSteps } from '../../lib/use-rows-in-steps';
import { buildMachineList, firstRowsOf, rowCountOf, type MachineGroup } from './machine-list-model';
import styles from './machine-list.module.css';
import { countEquipment } from './structure-stats';

/**
 * The whole row is the link (a 56 px touch target); its name is the machine's name, the details describe it.
 * Plain elements with a CSS module: a big plant mounts hundreds of rows at once (machine-list.module.css).
 */
const MachineRow = memo(function MachineRow({ machine }: { machine: EquipmentSummary }) {
  const details = [machine.equipmentid, brandAndModel(machine.brand, machine.model)].filter(Boolean).join(' · ');
  const detailsId = `machine-${machine.nodeid}-details`;
  return (
    <li>
      <RouterLink className={styles.row} to={`/machine-overview?nodeid=${machine.nodeid}`} aria-label={machine.name} aria-describedby={details ? detailsId : undefined}>
        <span className={styles.text}>
          <span className={styles.name}>
            {machine.name}
          </span>
          {details && (
            <span id={detailsId} className={styles.details}>
              {details}
            </span>
          )}
        </span>
        <ChevronRight className={styles.chevron} size={18} aria-hidden />
      </RouterLink>
    </li>
  );
});

function Group({ group, level: Title }: { group: MachineGroup; level: 'h4' | 'h3' }) {
  const { t } = useTranslation();
  return (
    <section className={styles.group} aria-label={group.name}>
      <div className={styles.groupHeader}>
        <Title className={styles.groupTitle}>{group.name}</Title>
        <p className={styles.groupCount}>{t('machine.list.count', { count: group.total ?? group.machines.length })}</p>
      </div>
      <ul className={styles.rows}>
        {group.machines.map((machine) => (
          <MachineRow key={machine.nodeid} machine={machine} />
        ))}
      </ul>
    </section>
  );
}

/** A plant with its areas, or all pools: a card whose title names them, with each group's machines. */
function GroupsCard({ icon, title, groups }: { icon: ReactNode; title: string; groups: readonly MachineGroup[] }) {
  return (
    <Card.Root variant="outline" bg="bg.subtle">
      <Card.Header pb="0">
        <HStack gap="2">
          {icon}
          <Heading as="h3" size="lg">
            {title}
          </Heading>
        </HStack>
      </Card.Header>
      <Card.Body>
        <Stack gap="5">
          {groups.map((group) => (
            <Group key={group.nodeid} group={group} level="h4" />
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

export interface MachineListProps {
  /** The part of the plant the user follows. */
  tree: StructureTree;
  /** The whole organisation: a search also finds machines outside the selection. */
  all: StructureTree;
  onEditSelection(): void;
}

/**
 * Memoised: the screen above re-renders for its own state (the session, the selection dialog), and each render of
 * the list renders every group's header and count again (W1: ~200 ms tasks at 4× CPU during the first sync).
 */
export const MachineList = memo(function MachineList({ tree, all, onEditSelection }: MachineListProps) {
  const { t } = useTranslation();
  // The search lives in the address (?q=, replaced while typing): back from a machine it is still there.
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const setQuery = (next: string) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next) updated.set('q', next);
        else updated.delete('q');
        return updated;
      },
      { replace: true, preventScrollReset: true },
    );
  const deferredQuery = useDeferredValue(query);
  const built = useMemo(() => buildMachineList(tree, deferredQuery, all), [tree, deferredQuery, all]);
  // A list that fits is rendered whole at once (firstRowsOf returns the same object: no second pass).
  const rows = useRowsInSteps(rowCountOf(built));
  const model = useMemo(() => firstRowsOf(built, rows), [built, rows]);
  const searching = deferredQuery.trim() !== '';
  const nothingFollowed = countEquipment(tree) === 0;

  return (
    <Stack gap="5" as="section" aria-labelledby="machine-list-title" data-testid="machine-list">
      <HStack justify="space-between" gap="4" flexWrap="wrap">
        <Heading id="machine-list-title" as="h2" size="lg">
          {t('machine.list.title')}{' '}
          <Text as="span" color="fg.muted" fontWeight="normal" textStyle="md">
            ({t('machine.list.count', { count: built.total })})
          </Text>
        </Heading>
        <HStack gap="2" flex={{ base: '1 1 100%', md: '0 1 auto' }}>
          <InputGroup startElement={<Search size={18} aria-hidden />} flex="1" minW={{ md: 'xs' }}>
            <Input type="search" aria-label={t('machine.list.search')} placeholder={t('machine.list.searchPlaceholder')} value={query} onChange={(event) => setQuery(event.target.value)} bg="bg.panel" />
          </InputGroup>
          <Button variant="outline" onClick={onEditSelection} data-testid="edit-subscriptions" bg="bg.panel">
            <SlidersHorizontal size={18} aria-hidden />
            {t('subscriptions.edit')}
          </Button>
        </HStack>
      </HStack>

      {nothingFollowed && !searching && (
        <Card.Root variant="outline" data-testid="no-subscriptions">
          <Card.Body gap="3" alignItems="flex-start">
            <Heading as="h3" size="md">
              {t('subscriptions.emptyTitle')}
            </Heading>
            <Text color="fg.muted">{t('subscriptions.emptyText')}</Text>
            <Button colorPalette="brand" onClick={onEditSelection}>
              {t('subscriptions.choose')}
            </Button>
          </Card.Body>
        </Card.Root>
      )}

      {built.total === 0 && built.others.length === 0 && searching && <Text color="fg.muted">{t('machine.list.noMatch', { query: deferredQuery.trim() })}</Text>}

      {model.sites.map((site) => (
        <GroupsCard key={site.nodeid} icon={<Factory size={20} aria-hidden />} title={site.name} groups={site.areas} />
      ))}

      {model.pools.length > 0 && <GroupsCard icon={<Boxes size={20} aria-hidden />} title={t('machine.list.pools')} groups={model.pools} />}

      {model.unlinked.length > 0 && (
        <Card.Root variant="outline" bg="bg.subtle">
          <Card.Body>
            <Group group={{ nodeid: 'unlinked', name: t('machine.list.unlinked'), machines: model.unlinked }} level="h3" />
          </Card.Body>
        </Card.Root>
      )}

      {model.others.length > 0 && (
        <Card.Root variant="outline" borderStyle="dashed" data-testid="machine-list-others">
          <Card.Body>
            <Group group={{ nodeid: 'others', name: t('machine.list.others'), machines: model.others }} level="h3" />
          </Card.Body>
        </Card.Root>
      )}
    </Stack>
  );
});
