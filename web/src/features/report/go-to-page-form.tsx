import { useState } from 'react';
import { ActionIcon, NumberInput, Text } from '@mantine/core';
import { Icon } from '../../components/icon.tsx';
import { pageIndexFromInput } from './table-model.ts';

const PAGE_INPUT_ERROR_ID = 'page-input-error';

export interface GoToPageFormProps {
  pageCount: number;
  isError: boolean;
  onPageIndex: (index: number) => void;
}

/** The go-to-page input: a page out of range or not a whole number is said beside it, and no page is turned. */
export function GoToPageForm({ pageCount, isError, onPageIndex }: GoToPageFormProps) {
  const [input, setInput] = useState<string | number>('');
  const [inputError, setInputError] = useState<string | undefined>();

  const go = () => {
    const target = pageIndexFromInput(input, pageCount);
    setInputError(target.error);
    if (target.error !== undefined) return;
    onPageIndex(target.index);
    setInput('');
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        go();
      }}
      style={{ display: 'flex', alignItems: 'center', gap: 6 }}
    >
      <NumberInput
        aria-label="Go to page"
        placeholder="Page"
        value={input}
        onChange={(value) => {
          setInput(value);
          setInputError(undefined);
        }}
        clampBehavior="none"
        error={inputError !== undefined}
        aria-errormessage={inputError === undefined ? undefined : PAGE_INPUT_ERROR_ID}
        hideControls
        size="xs"
        w={72}
        disabled={isError}
        data-testid="page-input"
      />
      <ActionIcon type="submit" variant="default" aria-label="Go to the page" disabled={isError}>
        <Icon name="arrow-right" size={16} />
      </ActionIcon>
      {inputError === undefined ? null : (
        <Text size="xs" c="red.8" id={PAGE_INPUT_ERROR_ID} role="alert" data-testid="page-input-error">
          {inputError}
        </Text>
      )}
    </form>
  );
}
