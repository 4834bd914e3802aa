import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FileChooser } from './FileChooser';

describe('FileChooser', () => {
  it('hands over the chosen file, even the same one twice, and describes the input with its message', async () => {
    const user = userEvent.setup();
    const onChoose = vi.fn();
    const { rerender } = render(<FileChooser label="CSV file" accept=".csv" onChoose={onChoose} />);
    const input = screen.getByLabelText('CSV file');
    const file = new File(['a@b.c'], 'list.csv', { type: 'text/csv' });
    await user.upload(input, file);
    await user.upload(input, file);
    expect(onChoose).toHaveBeenCalledTimes(2);
    expect(onChoose).toHaveBeenLastCalledWith(file);
    expect(input).not.toHaveAccessibleDescription();

    rerender(<FileChooser label="CSV file" accept=".csv" onChoose={onChoose} message="Upload complete" />);
    expect(input).toHaveAccessibleDescription('Upload complete');
    expect(screen.getByRole('status')).toHaveTextContent('Upload complete');
    rerender(<FileChooser label="CSV file" accept=".csv" onChoose={onChoose} error="File format not supported" />);
    expect(input).toHaveAccessibleDescription('File format not supported');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('File format not supported');
  });

  it('cannot be used while busy', () => {
    render(<FileChooser label="CSV file" onChoose={() => {}} busy />);
    expect(screen.getByLabelText('CSV file')).toBeDisabled();
    expect(screen.getByRole('progressbar', { name: 'Reading the file' })).toBeInTheDocument();
  });
});
