import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useAppStore } from '../../store/use-app-store';
import { FirstRunView } from './FirstRunView';
import { SettingsForm } from './SettingsForm';
import './setup.css';

/**
 * Settings as two pages (issue 17): the clinician's own (recording, voice detection, theme) and
 * the service's, which IT sets up. React Aria's tabs carry the keyboard and focus handling.
 */
export function SettingsView(props: { onDone(): void }) {
  const settings = useAppStore((s) => s.settings);
  if (!settings) return <p aria-busy="true">Loading settings…</p>;
  if (!settings.firstRunComplete) return <FirstRunView settings={settings} />;
  return (
    <div className="settings">
      <div className="settings-header">
        <h2>Settings</h2>
        <button type="button" className="link-button" onClick={props.onDone}>
          Back to the visit
        </button>
      </div>
      <Tabs className="tabs">
        <TabList aria-label="Settings pages" className="tab-list">
          <Tab id="clinician" className="tab">
            Recording and display
          </Tab>
          <Tab id="service" className="tab">
            Service (for IT)
          </Tab>
        </TabList>
        <TabPanel id="clinician" className="tab-panel">
          <SettingsForm page="clinician" settings={settings} heading="Recording and display" />
        </TabPanel>
        <TabPanel id="service" className="tab-panel">
          <SettingsForm page="service" settings={settings} heading="The documentation service" />
        </TabPanel>
      </Tabs>
    </div>
  );
}
