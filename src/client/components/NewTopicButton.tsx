import { useT } from '../app/hooks';
import { Icon } from './Icon';

/** The "New topic" button: the #new_topic element the navigation layer opens the composer for. */
export function NewTopicButton() {
  const { t } = useT();
  return (
    <button type="button" id="new_topic" className="btn btn-primary d-inline-flex align-items-center gap-1">
      <Icon name="plus" size={16} />
      {t('category:new-topic-button')}
    </button>
  );
}
