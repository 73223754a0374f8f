// The incentive of a form or a review request: what the business offers for a review (a select of
// the types, and what exactly, once a type is chosen). The API's messages show at each control.
import type { ApiError } from '../api.ts';
import { SelectField, TextField } from './fields.tsx';
import { INCENTIVE_TYPES, type IncentiveDraft } from './incentive.ts';

export function IncentiveField(
  { value, onChange, error }: { value: IncentiveDraft; onChange: (d: IncentiveDraft) => void; error?: ApiError },
) {
  return (
    <>
      <SelectField
        label='Incentive for a review'
        name='incentive.type'
        hint='What the reviewer receives for writing a review, if anything. Such reviews are labelled as incentivized wherever they are shown.'
        error={error}
        value={value.type}
        onValue={(type) => onChange({ ...value, type: type as IncentiveDraft['type'] })}
        options={[['', 'None'], ...INCENTIVE_TYPES]}
      />
      {value.type !== '' && (
        <TextField
          label='What the reviewer receives'
          name='incentive.description'
          hint='In words the public may read, such as “10% off your next order”.'
          error={error}
          maxLength={500}
          value={value.description}
          onValue={(description) => onChange({ ...value, description })}
        />
      )}
    </>
  );
}
