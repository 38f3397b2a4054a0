// Row menu of the rule sets table: edit (a new version), delete after a confirmation, and for
// superusers making the set the team default (or no longer). The team default is a superuser's to
// change: its owner may open it to save their changes as a new set of their own, not delete it.
import { Menu } from '@mantine/core';
import { IconStar, IconStarOff } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteRuleSet, makeTeamDefaultRuleSet, unsetTeamDefaultRuleSet } from '../../client/sdk.gen';
import type { RuleSetPublic } from '../../client/types.gen';
import { TEAM_DEFAULT_LOCKED, TOAST } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';
import { RecordActions } from '../common/RecordActions';
import { RuleSetEditor } from './RuleSetEditor';
import { readRuleSetsQueryKey } from '../../client/@tanstack/react-query.gen';
import { everyCall } from '../../lib/query-keys';

/** For the set's owner and superusers; anyone else reads it with RuleSetView. */
export function RuleSetActions({ ruleSet, isSuperuser }: { ruleSet: RuleSetPublic; isSuperuser: boolean }) {
  const queryClient = useQueryClient();
  const path = { id: ruleSet.id };
  const lockedDefault = ruleSet.is_team_default && !isSuperuser;
  const teamDefault = useMutation({
    mutationFn: async (make: boolean) => (make ? await makeTeamDefaultRuleSet({ path }) : await unsetTeamDefaultRuleSet({ path })).data,
    onSuccess: (set) => showSuccess(set.is_team_default ? TOAST.teamDefaultSet(set.name) : TOAST.teamDefaultUnset(set.name)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: everyCall(readRuleSetsQueryKey) }),
  });

  return (
    <RecordActions
      what="rule set"
      editDialog={(opened, onClose) => <RuleSetEditor ruleSet={ruleSet} asCopy={lockedDefault} opened={opened} onClose={onClose} />}
      deleteRefused={lockedDefault ? TEAM_DEFAULT_LOCKED : undefined}
      deleteRecord={async () => (await deleteRuleSet({ path })).data}
      confirmMessage={`"${ruleSet.name}" will be removed from your rule sets. Jobs already judged with it keep their decisions. Are you sure?`}
      refetch={[everyCall(readRuleSetsQueryKey)]}
      extraItems={
        isSuperuser &&
        (ruleSet.is_team_default ? (
          <Menu.Item leftSection={<IconStarOff size={14} />} onClick={() => teamDefault.mutate(false)}>
            Stop being team default
          </Menu.Item>
        ) : (
          <Menu.Item leftSection={<IconStar size={14} />} onClick={() => teamDefault.mutate(true)}>
            Make team default
          </Menu.Item>
        ))
      }
    />
  );
}
